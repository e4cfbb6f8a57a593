"""IP range lookup (seed 003): one Query per address on a versioned, gap-free ranges table.

`addresses` and `keys` are pure (standard library only) and shared with the `tatami load-ip` loader,
so the function and the loader encode keys with one piece of code.
"""
