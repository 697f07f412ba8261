"""Fitting the value of a round's end: the model of `strategies.search.value` (the margin as
it stands, plus a linear term and one hidden layer of tanh units over standardized features)
to the margins the deals ended with, by full-batch Adam in numpy.

Why numpy and not a training library: the model has about 260 weights and the data some
hundred thousand rows, so a few thousand full-batch steps take seconds on two cores, and
nothing heavy joins the dependencies. Held out: a fifth of the deals (every row of a deal on
one side, since a deal's rounds' ends share its outcome); the weights kept are those of the
step with the least held-out error (early stopping), and the errors reported beside two
baselines a reader can check: the margin as it stands alone, and the linear term alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simcasino.strategies.search.value import HIDDEN, N_FEATURES, pack, predict

HELD_OUT = 0.2  # of the deals
STEPS = 3000
RATE = 0.01
L2 = 1e-4
CHECK_EVERY = 25  # steps between looks at the held-out error


@dataclass(frozen=True)
class Fit:
    """The weights (`value.N_WEIGHTS`, the file's order) and their root-mean-square errors in
    points on the training rows and the held-out ones, beside the two baselines'."""

    weights: np.ndarray
    rows: int
    held_out_rows: int
    train_rmse: float
    held_out_rmse: float
    margin_now_rmse: float  # the margin as it stands, nothing learned
    linear_rmse: float  # the linear term alone, fitted by least squares

    def summary(self) -> dict[str, float | int]:
        return {
            "rows": self.rows,
            "held_out_rows": self.held_out_rows,
            "train_rmse": round(self.train_rmse, 4),
            "held_out_rmse": round(self.held_out_rmse, 4),
            "margin_now_rmse": round(self.margin_now_rmse, 4),
            "linear_rmse": round(self.linear_rmse, 4),
        }


def split(deals: np.ndarray, seed: int) -> np.ndarray:
    """True for the rows of the held-out deals: a fifth of the deals, drawn from ``seed``."""
    unique = np.unique(deals)
    held = np.random.default_rng(seed).permutation(unique)[: max(1, round(HELD_OUT * len(unique)))]
    return np.isin(deals, held)


def fit_value(
    features: np.ndarray, margins: np.ndarray, deals: np.ndarray, seed: int, steps: int = STEPS
) -> Fit:
    """The model fitted to ``margins`` (a row's deal's margin for its seat) from ``features``
    (one row per round's end), a fifth of ``deals`` held out."""
    x_all, y_all = features.astype(float), margins.astype(float)
    held = split(deals, seed)
    x, y = x_all[~held], y_all[~held]
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    z = (x - mean) / scale
    residual = y - x[:, 0]
    design = np.column_stack([z, np.ones(len(z))])
    linear = np.linalg.lstsq(design, residual, rcond=None)[0]
    rng = np.random.default_rng(seed)
    params = [
        rng.normal(0, 0.5 / np.sqrt(N_FEATURES), (HIDDEN, N_FEATURES)),
        np.zeros(HIDDEN),
        np.zeros(HIDDEN),
        linear[:-1].copy(),
        np.array(linear[-1]),
    ]

    def weights() -> np.ndarray:
        return pack(mean, scale, params[0], params[1], params[2], params[3], float(params[4]))

    def rmse(rows: np.ndarray, targets: np.ndarray, w: np.ndarray) -> float:
        return (
            float(np.sqrt(np.mean((predict(w, rows) - targets) ** 2)))
            if len(rows)
            else float("nan")
        )

    best, best_error = weights(), rmse(x_all[held], y_all[held], weights())
    linear_error = best_error
    moments = [(np.zeros_like(p, dtype=float), np.zeros_like(p, dtype=float)) for p in params]
    for step in range(1, steps + 1):
        grads = _gradients(params, z, residual)
        for k, (p, g) in enumerate(zip(params, grads)):
            g = g + L2 * p if k == 0 else g
            m, v = moments[k]
            m[...] = 0.9 * m + 0.1 * g
            v[...] = 0.999 * v + 0.001 * g * g
            p -= RATE * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
        if step % CHECK_EVERY == 0:
            error = rmse(x_all[held], y_all[held], weights())
            if error < best_error:
                best, best_error = weights(), error
    return Fit(
        best,
        int((~held).sum()),
        int(held.sum()),
        rmse(x, y, best),
        best_error,
        float(np.sqrt(np.mean((x_all[held, 0] - y_all[held]) ** 2))),
        linear_error,
    )


def _gradients(params: list[np.ndarray], z: np.ndarray, residual: np.ndarray) -> list[np.ndarray]:
    """The mean squared error's gradient by each part of the model, on standardized rows ``z``."""
    hidden_w, hidden_b, out_w, linear_w, out_b = params
    hidden = np.tanh(z @ hidden_w.T + hidden_b)
    error = 2 * (hidden @ out_w + z @ linear_w + out_b - residual) / len(z)
    back = np.outer(error, out_w) * (1 - hidden**2)
    return [back.T @ z, back.sum(axis=0), hidden.T @ error, z.T @ error, np.array(error.sum())]
