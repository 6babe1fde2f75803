"""Evals: run datasets through competing prompt versions and the template, and compare them.

Modules, one concept each: :mod:`.dataset` (cases), :mod:`.resolve` (what contenders read),
:mod:`.contenders` (who answers), :mod:`.versions` (prompt directories and git revisions),
:mod:`.cells` (one answer and its metrics), :mod:`.metrics`, :mod:`.runner` (the matrix and the
results cache), :mod:`.stats` and :mod:`.comparison` (is a difference real?), :mod:`.report` and
:mod:`.html` (what you read), :mod:`.suite` (one run).
This package never imports litellm; the CLI edge builds the adapter and passes it in.
"""
