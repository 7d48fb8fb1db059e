"""Probe: Gregorian <-> Rata Die <-> Hebrew and Julian conversions on fixed dates, as one JSON object (recorded
from the original natively; a rebuilt Gregorian module must print the same)."""
import json

from hebrewcal import GregorianDate, HebrewDate, to_gregorian, to_hebrew, to_julian, weekday
from hebrewcal.calendars.gregorian import is_leap_year, last_day_of_month

DAYS = [(1, 1, 1), (1582, 10, 15), (1900, 2, 28), (2000, 2, 29), (2024, 3, 1), (2026, 9, 12), (-3760, 9, 7)]


def date(d):
    return [d.year, d.month, d.day]


out = {
    "leap": [is_leap_year(y) for y in (1600, 1700, 1900, 2000, 2023, 2024, 0, -4)],
    "month_lengths": [last_day_of_month(y, m) for y in (2023, 2024) for m in range(1, 13)],
    "to_rd": [GregorianDate(*d).to_rd() for d in DAYS],
    "from_rd": [date(GregorianDate.from_rd(rd)) for rd in (1, 0, -1, 577736, 730179, 738946, 740000, -1373427)],
    "to_hebrew": [date(to_hebrew(GregorianDate(*d))) for d in DAYS[1:]],
    "hebrew_to_gregorian": [date(to_gregorian(HebrewDate(5787, 1, 1))), date(to_gregorian(HebrewDate(5785, 7, 1)))],
    "julian": [date(to_julian(GregorianDate(*d))) for d in DAYS[:5]],
    "weekday": [str(weekday(GregorianDate(*d))) for d in DAYS],
    "order": sorted(date(GregorianDate(*d)) for d in DAYS) == [date(x) for x in sorted(GregorianDate(*d) for d in DAYS)],
}
print(json.dumps(out, sort_keys=True))
