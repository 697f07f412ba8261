"""`review --report`: the loss of every move, move by move, as a chart (PNG or PDF by the
file's name), in the reports' house style; mistakes stand out, deals are marked off."""

from __future__ import annotations

from pathlib import Path

from simcasino.play.review import MISTAKE, Verdict

FORMATS = (".png", ".pdf")


def check_chart_path(path: Path) -> None:
    """Refuse a chart file of another format, or in a missing folder, before the review runs."""
    if path.suffix.lower() not in FORMATS:
        raise ValueError(
            f"--report {path}: the chart is drawn as PNG (.png) or PDF (.pdf), by its name"
        )
    if not path.parent.is_dir():
        raise ValueError(f"--report {path}: folder {path.parent} does not exist")


def draw_losses(verdicts: list[Verdict], title: str, path: Path) -> None:
    """Bars of the points each move lost (mistakes in the second colour), the mistake line,
    and a line where each deal begins."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    from simcasino.report.style import DPI, PAGE, report_style, series_colour

    with report_style():
        figure, axes = plt.subplots(figsize=(PAGE[0], PAGE[1] / 2))
        losses = [v.loss for v in verdicts]
        colours = [series_colour(1 if v.mistake else 0) for v in verdicts]
        moves = range(1, len(verdicts) + 1)
        axes.bar(
            moves, losses, color=colours, yerr=[v.error for v in verdicts], ecolor="grey", capsize=2
        )
        axes.axhline(
            MISTAKE,
            color=series_colour(1),
            linestyle="--",
            linewidth=1,
            label=f"mistake: over {MISTAKE}",
        )
        for i, verdict in enumerate(verdicts):
            if i and verdict.deal != verdicts[i - 1].deal:
                axes.axvline(i + 0.5, color="grey", linewidth=0.8)
        axes.xaxis.set_major_locator(
            MaxNLocator(integer=True)
        )  # a move is a whole number: no move 1.5
        axes.set_xlabel("move (deals marked off by grey lines)")
        axes.set_ylabel("points lost against the best move")
        axes.set_title(title)
        axes.legend(loc="upper right")
        figure.tight_layout()
        try:
            figure.savefig(path, dpi=DPI)
        except OSError as err:
            raise ValueError(f"cannot write {path}: {err.strerror}") from None
        finally:
            plt.close(figure)
