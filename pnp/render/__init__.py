"""Card faces: sandboxed Jinja2 SVG templates, turned into ReportLab drawings by svglib."""
