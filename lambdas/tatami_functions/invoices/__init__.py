"""The adjacency-list lab (InvoiceAndBilling): invoices, bills and customers in one table, an inverted GSI."""
