"""The grid widget (one anywidget per report) and its static forms: text, sanitizer-proof HTML tables,
PNG/SVG/PDF files."""
