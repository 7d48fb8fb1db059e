"""Probe: solar <-> lunar conversions, Julian day numbers, new moons and solar terms on fixed dates, as one JSON
object (recorded from the original natively; a rebuilt core module must print the same)."""
import datetime as dt
import json

from lunar_vn import LunarDate, can_chi, jd_from_date, list_holidays, lunar_to_solar, solar_to_lunar
from lunar_vn import core

DAYS = [dt.date(1900, 1, 31), dt.date(1985, 2, 20), dt.date(2000, 1, 1), dt.date(2020, 5, 23), dt.date(2023, 3, 22),
        dt.date(2025, 7, 25), dt.date(2026, 2, 17), dt.date(2099, 12, 31)]


def lunar(ld):
    return [ld.day, ld.month, ld.year, ld.leap]


out = {
    "jd": [jd_from_date(d.day, d.month, d.year) for d in DAYS],
    "jd_to_date": [list(core.jd_to_date(j)) for j in (2415021, 2451545, 2299160, 2299161, 2488070)],
    "to_lunar": [lunar(solar_to_lunar(d)) for d in DAYS],
    "to_solar": [lunar_to_solar(LunarDate(1, 1, y)).isoformat() for y in (1990, 2004, 2023, 2026, 2033)],
    "leap_month": lunar_to_solar(LunarDate(1, 2, 2023, True)).isoformat(),
    "new_moons": [core.get_new_moon_day(k, 7.0) for k in (0, 1, 1000, 1236, 1500)],
    "sun_longitude": [core.get_sun_longitude(jd_from_date(d.day, d.month, d.year), 7.0) for d in DAYS],
    "month11": [core.get_lunar_month11(y, 7.0) for y in (1999, 2020, 2025)],
    "can_chi": [can_chi.get_year_can_chi(y) for y in (2024, 2025, 2026)],
    "holidays": [[d.isoformat(), n] for d, n in list_holidays(2026)],
}
print(json.dumps(out, sort_keys=True))
