//! The plots of a run, like the seed's Figures 7 and 8: per rate set, the
//! mean latency and the jitter (standard deviation) of C0 and of the low
//! threads against n, one line per configuration and class; drawn as SVG
//! with `plotters` and rendered to PNG with `resvg`, with the fonts the
//! system has, found at run time.
//!
//! The µs axis is logarithmic: the configurations' figures lie an order of
//! magnitude or more apart (rtorb's C0 in tens of µs, omniORB's low
//! threads in thousands), and on a linear axis the lowest lines lie flat
//! on the x axis.

use std::path::{Path, PathBuf};

use plotters::prelude::*;
use resvg::{tiny_skia, usvg};

use super::class_stats::ClassStats;
use super::floor;
use super::results::Results;
use super::schedule::RateSet;

/// What a plot shows.
#[derive(Debug, Clone, Copy)]
enum Metric {
    /// Mean round trip.
    Latency,
    /// Standard deviation of the round trip.
    Jitter,
}

impl Metric {
    fn name(self) -> &'static str {
        match self {
            Metric::Latency => "latency",
            Metric::Jitter => "jitter",
        }
    }

    fn axis(self) -> &'static str {
        match self {
            Metric::Latency => "mean latency (µs, log scale)",
            Metric::Jitter => "jitter: standard deviation of latency (µs, log scale)",
        }
    }

    fn of(self, s: &ClassStats) -> f64 {
        match self {
            Metric::Latency => s.mean_us,
            Metric::Jitter => s.stddev_us,
        }
    }
}

/// One line of a plot.
struct Line {
    label: String,
    points: Vec<(u32, f64)>,
    color: RGBColor,
    dashed: bool,
    /// Whether each point is marked.
    marks: bool,
}

const COLORS: [RGBColor; 4] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0x94, 0x67, 0xbd),
];

fn lines(results: &Results, rates: RateSet, metric: Metric) -> Vec<Line> {
    let mut out = Vec::new();
    for (i, configuration) in results.configurations.iter().enumerate() {
        for (high, class) in [(true, "C0 (high)"), (false, "low threads (dashed)")] {
            let points: Vec<(u32, f64)> = results
                .n
                .iter()
                .filter_map(|n| {
                    let r = results.get(configuration, rates, *n)?;
                    let s = if high { &r.high } else { &r.low };
                    Some((*n, metric.of(s)))
                })
                .collect();
            if !points.is_empty() {
                out.push(Line {
                    label: format!("{configuration}: {class}"),
                    points,
                    color: COLORS[i % COLORS.len()],
                    dashed: !high,
                    marks: true,
                });
            }
        }
    }
    if let Some(floor) = results.floor.get(rates.name()) {
        // A horizontal line across the plot: the average of the floor's
        // runs before and after the points.
        let y = floor.average(|s| metric.of(s));
        let n = results.n.iter().copied().max().unwrap_or(1);
        let right = n + n.div_ceil(20);
        out.push(Line {
            label: floor::LABEL.to_owned(),
            points: vec![(0, y), (right, y)],
            color: RGBColor(0x60, 0x60, 0x60),
            dashed: true,
            marks: false,
        });
    }
    out
}

/// The µs axis's range, in whole decades: from the decade of the
/// smallest value above 0 to one that leaves room for the legend above
/// the largest (1 to 10 µs when there is no value).
fn y_range(lines: &[Line]) -> (f64, f64) {
    let values = || {
        lines
            .iter()
            .flat_map(|l| l.points.iter().map(|p| p.1))
            .filter(|y| y.is_finite() && *y > 0.0)
    };
    let min = values().fold(f64::INFINITY, f64::min);
    let max = values().fold(0.0, f64::max);
    if !(min.is_finite() && max > 0.0) {
        return (1.0, 10.0);
    }
    let lo = 10f64.powf(min.log10().floor());
    let hi = 10f64.powf((max * 6.0).log10().ceil());
    (lo, hi)
}

/// The label of a line of the µs axis: every line is 1 to 9 times a power
/// of ten, and the 1, 2 and 5 are labelled, with no more digits than they
/// need.
fn micros(v: f64) -> String {
    let leading = (v / 10f64.powf(v.log10().floor())).round();
    if ![1.0, 2.0, 5.0].contains(&leading) {
        return String::new();
    }
    if v >= 1.0 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

/// The SVG of one plot.
fn svg(title: &str, metric: Metric, lines: &[Line]) -> Result<String, String> {
    let err = |e: &dyn std::fmt::Display| format!("plotting {title}: {e}");
    // The x axis is the points'; an unmarked line spans it.
    let max_x = lines
        .iter()
        .filter(|l| l.marks)
        .flat_map(|l| l.points.iter().map(|p| p.0))
        .fold(1, u32::max);
    let (min_y, max_y) = y_range(lines);
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (900, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(72)
            .build_cartesian_2d(0..max_x + max_x.div_ceil(20), (min_y..max_y).log_scale())
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc("low-priority threads (n)")
            .y_desc(metric.axis())
            .y_labels(40)
            .y_label_formatter(&|v| micros(*v))
            .y_max_light_lines(0)
            .label_style(("sans-serif", 15))
            .draw()
            .map_err(|e| err(&e))?;
        for line in lines {
            // A value of 0 has no place on a logarithmic axis: it is drawn
            // at the bottom.
            let points: Vec<(u32, f64)> = line
                .points
                .iter()
                .map(|(x, y)| (*x, y.max(min_y)))
                .collect();
            let color = line.color;
            let style = ShapeStyle::from(&color).stroke_width(2);
            let series = if line.dashed {
                chart.draw_series(DashedLineSeries::new(points.clone(), 8, 5, style))
            } else {
                chart.draw_series(LineSeries::new(points.clone(), style))
            }
            .map_err(|e| err(&e))?;
            series.label(line.label.clone()).legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 24, y)], color.stroke_width(2))
            });
            if line.marks {
                chart
                    .draw_series(points.iter().map(|p| Circle::new(*p, 3, color.filled())))
                    .map_err(|e| err(&e))?;
            }
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(("sans-serif", 15))
            .draw()
            .map_err(|e| err(&e))?;
        root.present().map_err(|e| err(&e))?;
    }
    Ok(text)
}

/// The system's fonts, with a sans-serif family that is installed.
fn fonts() -> usvg::Options<'static> {
    let mut options = usvg::Options::default();
    let db = options.fontdb_mut();
    db.load_system_fonts();
    let query = usvg::fontdb::Query {
        families: &[usvg::fontdb::Family::SansSerif],
        ..Default::default()
    };
    if db.query(&query).is_none() {
        let families: Vec<String> = db
            .faces()
            .filter_map(|f| f.families.first().map(|(name, _)| name.clone()))
            .collect();
        // A sans-serif family by its name, else any.
        let installed = families
            .iter()
            .find(|n| n.contains("Sans") && !n.contains("Mono"))
            .or(families.first())
            .cloned();
        if let Some(name) = installed {
            db.set_sans_serif_family(name);
        }
    }
    options
}

/// Renders an SVG document to PNG.
fn png(svg: &str, options: &usvg::Options<'_>) -> Result<Vec<u8>, String> {
    let tree = usvg::Tree::from_str(svg, options).map_err(|e| format!("reading the SVG: {e}"))?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or("the plot has no size to render")?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap
        .encode_png()
        .map_err(|e| format!("encoding PNG: {e}"))
}

/// Writes the plots of `results` into `dir` (made if missing): for each
/// rate set, `priority-RATES-latency` and `priority-RATES-jitter`, as
/// `.svg` and `.png`. Returns the files written.
pub(crate) fn write(results: &Results, dir: &Path) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let options = fonts();
    if options.fontdb.is_empty() {
        eprintln!(
            "rtorb-bench priority: no system fonts found: the PNG plots have no text \
             (install a font package such as fonts-dejavu-core)"
        );
    }
    let mut written = Vec::new();
    for rates in results.rate_sets() {
        let info = &results.rate_sets[rates.name()];
        for metric in [Metric::Latency, Metric::Jitter] {
            let title = format!(
                "{} against n: C0 at {} Hz, low threads at {} Hz",
                metric.name(),
                info.high_hz,
                info.low_hz
            );
            let lines = lines(results, rates, metric);
            let text = svg(&title, metric, &lines)?;
            let stem = format!("priority-{}-{}", rates.name(), metric.name());
            let svg_path = dir.join(format!("{stem}.svg"));
            std::fs::write(&svg_path, &text).map_err(|e| format!("{}: {e}", svg_path.display()))?;
            let png_path = dir.join(format!("{stem}.png"));
            std::fs::write(&png_path, png(&text, &options)?)
                .map_err(|e| format!("{}: {e}", png_path.display()))?;
            written.extend([svg_path, png_path]);
        }
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(points: &[(u32, f64)]) -> Line {
        Line {
            label: "l".to_owned(),
            points: points.to_vec(),
            color: COLORS[0],
            dashed: false,
            marks: true,
        }
    }

    #[test]
    fn the_log_axis_spans_every_value_above_zero_in_decades() {
        let lines = [line(&[(1, 20.0), (5, 0.0)]), line(&[(1, 3000.0)])];
        assert_eq!(y_range(&lines), (10.0, 100_000.0));
        assert_eq!(y_range(&[line(&[(1, 0.0)])]), (1.0, 10.0));
        assert_eq!(y_range(&[]), (1.0, 10.0));
    }

    #[test]
    fn axis_labels_have_the_digits_they_need() {
        assert_eq!(micros(2000.0), "2000");
        assert_eq!(micros(50.0), "50");
        assert_eq!(micros(10.0), "10");
        assert_eq!(micros(0.5), "0.5");
        assert_eq!(micros(30.0), "");
        assert_eq!(micros(900.0), "");
    }

    #[test]
    fn a_plot_draws_lines_an_order_of_magnitude_apart() {
        let lines = [
            line(&[(1, 25.0), (10, 27.0)]),
            line(&[(1, 900.0), (10, 4000.0)]),
        ];
        let svg = svg("latency", Metric::Latency, &lines).unwrap();
        assert!(
            svg.starts_with("<svg") && svg.contains("log scale"),
            "{svg}"
        );
    }
}
