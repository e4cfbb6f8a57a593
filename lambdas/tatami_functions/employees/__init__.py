"""The employees lab: one table, an overloaded GSI, a sparse manager GSI and a `state#`/`city#dept` GSI."""
