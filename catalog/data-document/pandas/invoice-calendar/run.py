"""Business-day calendar arithmetic with pandas offsets: due dates by CustomBusinessDay under a weekmask and the
US federal holiday calendar, month-end statement dates, fiscal-quarter Periods and business-day ranges."""

import warnings

import numpy as np
import pandas as pd
from pandas.tseries.holiday import USFederalHolidayCalendar
from pandas.tseries.offsets import CustomBusinessDay, CustomBusinessMonthEnd

MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def main(scn):
    rng = np.random.default_rng(int(scn["seed"]))
    n = int(scn["n_invoices"])
    start = pd.Timestamp("2020-01-01") + pd.Timedelta(days=int(scn["start_offset_days"]))
    inv = start + pd.to_timedelta(np.sort(rng.integers(0, int(scn["span_days"]), n)), unit="D")
    amount = np.round(rng.lognormal(6.0, 1.0, n), 2)
    holidays = (
        USFederalHolidayCalendar().holidays("2019-01-01", "2027-12-31") if scn["holidays"] == "us_federal" else []
    )
    mask = str(scn["weekmask"])
    bday = CustomBusinessDay(1, weekmask=mask, holidays=holidays)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pandas warns that a non-vectorised offset is applied element-wise
        due = pd.DatetimeIndex(inv) + CustomBusinessDay(
            int(scn["payment_terms_bdays"]), weekmask=mask, holidays=holidays
        )
    stmt_off = CustomBusinessMonthEnd(1, weekmask=mask, holidays=holidays)
    statement = pd.DatetimeIndex([stmt_off.rollforward(d) for d in inv])
    df = pd.DataFrame({"invoice": inv, "due": due, "statement": statement, "amount": amount})
    fy = f"Q-{MONTHS[int(scn['fiscal_year_end_month']) - 1]}"
    df["quarter"] = df["due"].dt.to_period(fy)

    by_q = df.groupby("quarter", sort=True)["amount"].agg(["size", "sum"])
    by_s = df.groupby("statement", sort=True)["amount"].agg(["size", "sum"])
    days = (df["due"] - df["invoice"]).dt.days
    span = pd.bdate_range(df["invoice"].min(), df["due"].max(), freq="C", weekmask=mask, holidays=holidays)
    weekday = df["due"].dt.dayofweek.value_counts()
    return {
        "mean_days_to_due": float(days.mean()),
        "max_days_to_due": int(days.max()),
        "n_invoices_on_non_business_days": int(sum(not bday.is_on_offset(d) for d in inv)),
        "due_by_weekday": {DAYS[k]: int(weekday.get(k, 0)) for k in range(7)},
        "by_fiscal_quarter": [
            {"quarter": str(q), "n_due": int(r["size"]), "amount_due": float(r["sum"])} for q, r in by_q.iterrows()
        ],
        "by_statement_date": [
            {"statement_date": d.strftime("%Y-%m-%d"), "n": int(r["size"]), "amount": float(r["sum"])}
            for d, r in by_s.iterrows()
        ],
        "business_days_in_span": int(len(span)),
        "months_spanned": int((df["due"].max().to_period("M") - df["invoice"].min().to_period("M")).n),
    }
