"""The grid widget (one anywidget per report) and its static forms: text, SVG/HTML, PNG/SVG files."""
