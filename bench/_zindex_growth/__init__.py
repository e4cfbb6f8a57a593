"""Parts of bench/zindex_growth.py: the figures of a size, the goals, the chart, the monthly costs.
(Importing ``_zorder_search`` first puts the checkout, ``lambdas/`` and the zorder layer on the path.)"""
