"""What report.html says, apart from how it looks: a typed model of the report (model.py)
built from an audit's result (build.py and the builders of its parts). No markup and no
formatting here: auditor/output lays the model out (formatting.py and the templates)."""
