"""The live floor: records followed as the tables write them (`auditor watch`), findings
judged as each round ends, alerts, and the page surveillance watches. Above the audit of
one file and the run layer; nothing below imports it."""
