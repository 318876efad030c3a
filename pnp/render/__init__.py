"""Card faces: sandboxed Jinja2 SVG templates, compiled to PDF drawing operators by svgcanvas."""
