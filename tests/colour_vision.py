"""Colour arithmetic for the accessibility tests: WCAG 2.1 contrast ratios, and how a colour looks to a
colour-blind viewer (Machado, Oliveira and Fernandes 2009, severity 1: protanopia, deuteranopia, tritanopia),
compared as CIE76 differences in CIELAB."""

from __future__ import annotations

MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}


def _linear(colour: str) -> tuple[float, float, float]:
    h = colour.lstrip("#")
    h = "".join(c * 2 for c in h) if len(h) == 3 else h
    channels = [int(h[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    return tuple(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)


def luminance(colour: str) -> float:
    r, g, b = _linear(colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG 2.1's contrast ratio of two colours (1 to 21)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = (min(max(c, 0.0), 1.0) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def seen(colour: str, vision: str | None = None) -> tuple[float, float, float]:
    """The colour in CIELAB, as a viewer with `vision` (a key of MACHADO, or None for typical vision) sees it."""
    rgb = _linear(colour)
    if vision:
        rgb = tuple(sum(m * c for m, c in zip(row, rgb)) for row in MACHADO[vision])
    return _lab(rgb)


def difference(a: str, b: str, vision: str | None = None) -> float:
    """How far apart two colours look (CIE76 delta E) to a viewer with `vision`."""
    return sum((p - q) ** 2 for p, q in zip(seen(a, vision), seen(b, vision))) ** 0.5
