"""Localisation: CLDR plurals, placeholders, the translator workflow (PO export/import, status,
stale tracking) and the per-language fit report.

Kept light on import: `pnp.pack` uses `pnp.i18n.plurals` and `pnp.i18n.placeholders` while loading
every pack; the PO and YAML-writing modules load only for `pnp i18n ...`.
"""
