"""IP range lookup (seed 003): one Query per address on a versioned, gap-free ranges table.

`service` answers the routes; `addresses`, `keys` and `table` are pure (no AWS) and shared with the
`tatami load-ip` loader, so the function and the loader encode keys with one piece of code.
"""
