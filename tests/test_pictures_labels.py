"""judge/pictures/paint_png.py pastes each label from masks drawn once: the very pixels Pillow draws."""
import pytest
from PIL import Image, ImageDraw

from judge.pictures import paint_png
from judge.pictures.scene import Text

LABELS = [Text((100.0, 40.0), "BUR", 13, (20, 20, 20), halo=(255, 255, 255)),
          Text((57.37, 81.61), "St Petersburg", 11.4, (30, 60, 120), halo=(240, 240, 230), anchor="lm"),
          Text((190.5, 120.25), "F1901M", 9, (200, 10, 10), anchor="rm", bold=False),
          Text((33.9, 150.99), "Ägäis – Öl", 16, (0, 0, 0), halo=(250, 250, 0))]


@pytest.mark.parametrize("label", LABELS, ids=lambda t: t.text)
def test_a_pasted_label_is_what_pillow_draws(label):
    drawn = Image.new("RGB", (240, 180), (170, 200, 230))
    font = paint_png.load_font(max(6, round(label.size)), label.bold)
    ImageDraw.Draw(drawn).text(label.at, label.text, fill=label.fill, font=font, anchor=label.anchor,
                               stroke_width=1 if label.halo else 0, stroke_fill=label.halo)
    for _ in range(2):                       # drawn, then from the masks kept
        pasted = Image.new("RGB", (240, 180), (170, 200, 230))
        paint_png._paste_text(pasted, label)
        assert pasted.tobytes() == drawn.tobytes()
    assert drawn.tobytes() != Image.new("RGB", (240, 180), (170, 200, 230)).tobytes()
