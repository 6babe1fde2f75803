"""Evals: run datasets through competing prompt versions and the template, and compare them.

Modules, one concept each: :mod:`.dataset` (cases), :mod:`.resolve` (what contenders read),
:mod:`.contenders` and :mod:`.prompted` (who answers), :mod:`.versions` (prompt directories and
git revisions), :mod:`.cells` (one answer and its metrics), :mod:`.metrics`, :mod:`.accounting`
(requests, latency, tokens, cost), :mod:`.runner` (the matrix) and :mod:`.cellstore` (where cells
are kept), :mod:`.stats` and :mod:`.comparison` (is a difference real?), :mod:`.gates` (what fails
a run, and the recommendation), :mod:`.judge` (the optional model-rated metric),
:mod:`.progress`, :mod:`.report`, :mod:`.export` and :mod:`.html` (what you read), :mod:`.suite`
(one run).
This package never imports litellm; the CLI edge builds the adapter and passes it in.
"""
