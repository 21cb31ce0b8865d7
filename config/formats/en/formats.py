# Day before month, as everywhere else on the site (Django's English puts the month first).
DATE_FORMAT = "D j M Y"
DATETIME_FORMAT = "l j F, H:i"
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "D j M, H:i"
