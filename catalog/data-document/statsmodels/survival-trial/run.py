"""Two-arm survival trial with statsmodels.duration: Kaplan-Meier (SurvfuncRight) per arm with Greenwood errors,
weighted log-rank tests (survdiff) and a Cox proportional-hazards fit (PHReg, Breslow or Efron ties)."""

import warnings

import numpy as np
from statsmodels.duration.hazard_regression import PHReg
from statsmodels.duration.survfunc import SurvfuncRight, survdiff

WEIGHTS = {"logrank": None, "gehan-breslow": "gb", "tarone-ware": "tw"}


def trial(scn):
    rng = np.random.default_rng(int(scn["seed"]))
    n = int(scn["n"])
    arm = (np.arange(n) % 2).astype(np.float64)
    age = rng.normal(60.0, 10.0, n)
    u = rng.exponential(1.0, n)
    drop = rng.exponential(1.0, n)
    hazard = (
        float(scn["baseline_hazard"])
        * float(scn["hazard_ratio"]) ** arm
        * np.exp(float(scn["beta_age"]) * (age - 60.0) / 10.0)
    )
    t_event = u / hazard
    rate = float(scn["dropout_rate"])
    cens = np.minimum(drop / rate if rate > 0 else np.inf, float(scn["follow_up_months"]))
    status = (t_event <= cens).astype(np.float64)
    time = np.ceil(np.minimum(t_event, cens) * 10.0) / 10.0  # recorded to 0.1 month, rounded up
    return time, status, arm, age


def km_at(time, status, t):
    sf = SurvfuncRight(time, status)
    k = np.searchsorted(sf.surv_times, t, side="right") - 1
    if k < 0:
        return 1.0, 0.0
    s = float(sf.surv_prob[k])
    return s, (float(sf.surv_prob_se[k]) if s > 0.0 else 0.0)  # Greenwood's 0 * inf when every patient had the event


def main(scn):
    time, status, arm, age = trial(scn)
    landmark = float(scn["follow_up_months"]) / 2.0
    arms = []
    for a in (0.0, 1.0):
        m = arm == a
        s, se = km_at(time[m], status[m], landmark)
        arms.append(
            {
                "n": int(m.sum()),
                "events": int(status[m].sum()),
                "surv_at_landmark": s,
                "se_at_landmark": se,
                "mean_time": float(time[m].mean()),
            }
        )
    chi2, p = survdiff(time, status, arm, weight_type=WEIGHTS[str(scn["test_weights"])])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cox = PHReg(time, np.column_stack([arm, (age - 60.0) / 10.0]), status=status, ties=str(scn["ties"])).fit()
    return {
        "control": arms[0],
        "treated": arms[1],
        "test": {"chi2": float(chi2), "pvalue": float(p)},
        "cox": {
            "log_hr_arm": float(cox.params[0]),
            "log_hr_age_decade": float(cox.params[1]),
            "se_arm": float(cox.bse[0]),
            "se_age_decade": float(cox.bse[1]),
            "llf": float(cox.llf),
        },
    }
