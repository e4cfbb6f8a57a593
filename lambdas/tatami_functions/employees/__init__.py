"""Employees (seed 004's lab): one table, an overloaded GSI, a sparse manager GSI and a
`state#`/`<city>#<department>` GSI, behind `/employees`."""
