"""The engine's plain results (``output/kept.py``) are a start-up twin of the public models."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from summarizer.core.records import MISSING, fields
from summarizer.output.kept import Kept, KeptPattern, KeptSample, Rendering
from summarizer.output.models import Coordinate, OutputResult, PatternSummary, Sample


@pytest.mark.parametrize(
    ("plain", "model"),
    [(Rendering, OutputResult), (Kept, Coordinate), (KeptPattern, PatternSummary), (KeptSample, Sample)],
    ids=["Rendering", "Kept", "KeptPattern", "KeptSample"],
)
def test_the_plain_result_has_exactly_the_public_fields_and_defaults(
    plain: type, model: type[BaseModel]
) -> None:
    """A field added to one side only, or a default that differs, fails here before it fails a user."""
    plain_defaults = {f.name: (None if f.default is MISSING else f.default) for f in fields(plain) if f.init}
    model_defaults = {
        name: (None if info.is_required() else info.default) for name, info in model.model_fields.items()
    }
    assert set(plain_defaults) == set(model_defaults)
    for name, default in plain_defaults.items():
        if not isinstance(default, (tuple, list)):
            assert default == model_defaults[name], name
