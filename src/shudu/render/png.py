"""PNG through cairosvg (the optional extra ``render``)."""

from __future__ import annotations

from .scene import RenderError


def svg_to_png(svg: str, *, scale: float = 1.0) -> bytes:
    """The PNG of an SVG document; needs cairosvg (``pip install 'shudu[render]'``)."""
    try:
        import cairosvg
    except ImportError:
        raise RenderError("PNG output needs cairosvg: pip install 'shudu[render]' (or write .svg)") from None
    except OSError as exc:  # cairosvg is there but the cairo library is not
        raise RenderError(f"PNG output needs the cairo library ({exc}); write .svg instead") from None
    png = cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)
    assert isinstance(png, bytes)
    return png
