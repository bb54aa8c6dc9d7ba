"""QR codes as inline SVG (segno), for the pages that print or show a link: a table tent, a
player's score card, a night's door, a player's own link on the roster."""

import io

import segno
from django.utils.safestring import mark_safe


def qr_svg(link: str, *, title: str = "Score-card link", scale: int = 6) -> str:
    """``link`` as an inline ``<svg>`` QR code (medium error correction) titled ``title``."""
    buffer = io.BytesIO()
    segno.make(link, error="m").save(
        buffer, kind="svg", scale=scale, border=2, xmldecl=False, svgns=True, title=title
    )
    return mark_safe(buffer.getvalue().decode())
