"""The site's date and time formats by language (settings.FORMAT_MODULE_PATH), where Django's own
do not suit: English writes the day before the month like the rest of the site ("Thu 12 Mar",
never "03/12/2026"), and SHORT_DATETIME_FORMAT, the site's absolute time (a deadline, a move's
time, `zoned`), names the weekday in every language. What a module leaves out is Django's."""
