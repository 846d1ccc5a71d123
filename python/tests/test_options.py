"""Keyword options to the --nvfp4-to-ptx option string."""
import pytest

from nvfp4 import ArgumentError
from nvfp4.options import pipeline_options


def test_canonical_order_and_spelling():
    text = pipeline_options("sm_90a", {"split_k": 2, "cache_hints": False,
                                       "decode": "dp4a", "rows_per_block": 4})
    assert text == ("chip=sm_90a cache-hints=false decode=dp4a "
                    "rows-per-block=4 split-k=2")
    assert pipeline_options("sm_100a", {}) == "chip=sm_100a"
    assert (pipeline_options("sm_90a", {"a": 1, "b": 2}) ==
            pipeline_options("sm_90a", {"b": 2, "a": 1}))


@pytest.mark.parametrize("options, words", [
    ({"export_dir": "x"}, "set by the nvfp4 package"),
    ({"chip": "sm_90a"}, "set by the nvfp4 package"),
    ({"tuning_table": "table.json"}, "names a file"),
    ({"split_k": 1.5}, "expected an integer"),
    ({"decode": "dp4a prefetch=true"}, "expected an integer"),
    ({"decode": ""}, "expected an integer"),
    ({"Bad": 1}, "malformed option name"),
])
def test_refused(options, words):
    with pytest.raises(ArgumentError, match=words):
        pipeline_options("sm_90a", options)


def test_chip_must_be_a_word():
    with pytest.raises(ArgumentError, match="chip must be"):
        pipeline_options("sm_90a export-dir=/tmp", {})
    with pytest.raises(ArgumentError, match="chip must be"):
        pipeline_options(None, {})
