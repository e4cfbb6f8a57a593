"""CloudWatch, locally: a clock and the datapoints of every metric the local cloud sees (`metrics`,
fed by `metric_sources`), and the template's alarms read (`alarm_specs`), evaluated by CloudWatch's
rules (`alarm_eval`) and refreshed while the cloud runs (`alarms`).
"""
