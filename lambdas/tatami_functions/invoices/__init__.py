"""Invoices (seed 004's adjacency-list lab, InvoiceAndBilling): invoices, bills and customers in one
table with an inverted GSI, behind `/invoices`, `/customers/{id}/invoices` and `/bills`."""
