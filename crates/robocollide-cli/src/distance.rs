//! `robocollide distance`: one pair from the command line, or a JSON Lines batch.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use robocollide::geom::Shape;
use robocollide::query::{Separation, shape_shape};
use robocollide::report::{PairRecord, SeparationRecord};

const SHAPE_HELP: &str = "A shape, in metres, quoted as one argument:
  point    X,Y,Z
  segment  AX,AY,AZ BX,BY,BZ
  sphere   CX,CY,CZ RADIUS
  capsule  AX,AY,AZ BX,BY,BZ RADIUS      (sphere swept along a-b)
  cylinder AX,AY,AZ BX,BY,BZ RADIUS      (flat caps at a and b)
  box      CX,CY,CZ HX,HY,HZ [R,P,Y]     (centre, half-extents, optional URDF roll-pitch-yaw, rad)
  plane    PX,PY,PZ NX,NY,NZ             (half-space below the plane: point, outward normal)
No spaces inside a point. Example: 'capsule 0,0,0 1,0,0 0.1'";

const AFTER_HELP: &str = "Output: signed distance (> 0 apart, 0 touching, < 0 penetrating), \
the witness point on each shape and the unit normal from a to b.

Batch mode (--batch FILE, or - for stdin) reads JSON Lines, one pair per line:
  {\"a\": {\"capsule\": {\"a\": [0,0,0], \"b\": [1,0,0], \"radius\": 0.1}}, \"b\": {\"sphere\": {\"center\": [0.5,0.5,0], \"radius\": 0.2}}}
Shapes: {\"point\": [x,y,z]}, {\"segment\": {a, b}}, {\"sphere\": {center, radius}},
{\"capsule\": {a, b, radius}}, {\"cylinder\": {a, b, radius}},
{\"box\": {\"center\": [x,y,z], \"half_extents\": [hx,hy,hz], \"rpy\": [r,p,y]}} (rpy optional, radians),
{\"plane\": {\"point\": [x,y,z], \"normal\": [nx,ny,nz]}} (the solid is below the plane).
It writes one line per input line, in order:
  {\"distance\": d, \"point_a\": [...], \"point_b\": [...], \"normal\": [...]}
or, for a bad line, {\"line\": n, \"error\": \"...\"} and carries on.
Exit status: 0 when every line was good, 1 when any line was bad, 2 on other errors.

Examples:
  robocollide distance --a 'capsule 0,0,0 1,0,0 0.1' --b 'sphere 0.5,0.5,0 0.2'
  robocollide distance --a 'cylinder 0,0,0 0,0,1 0.5' --b 'point 2,0,0.5' --json
  robocollide distance --a 'box 0,0,0.4 0.6,0.4,0.4 0,0,0.3' --b 'capsule 1,0,0.2 1,0,1 0.1'
  robocollide distance --a 'plane 0,0,0 0,0,1' --b 'sphere 0.2,0,0.05 0.1'
  robocollide distance --batch pairs.jsonl > answers.jsonl";

/// Arguments of `robocollide distance`.
#[derive(Debug, Args)]
#[command(after_long_help = AFTER_HELP)]
pub struct DistanceArgs {
    /// First shape (see --help for the syntax).
    #[arg(long = "a", value_name = "SHAPE", long_help = SHAPE_HELP, required_unless_present = "batch", allow_hyphen_values = true)]
    a: Option<String>,
    /// Second shape.
    #[arg(long = "b", value_name = "SHAPE", long_help = SHAPE_HELP, required_unless_present = "batch", allow_hyphen_values = true)]
    b: Option<String>,
    /// Print JSON instead of a readable summary.
    #[arg(long)]
    json: bool,
    /// Read pairs as JSON Lines from FILE ('-' for stdin) and write JSON Lines answers.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["a", "b"])]
    batch: Option<PathBuf>,
}

/// Runs the subcommand.
pub fn run(args: &DistanceArgs) -> Result<ExitCode> {
    if let Some(path) = &args.batch {
        return run_batch(path);
    }
    let parse = |name: &str, text: &Option<String>| -> Result<Shape> {
        let text = text.as_deref().unwrap_or_default();
        text.parse::<Shape>()
            .with_context(|| format!("--{name} '{text}'"))
    };
    let a = parse("a", &args.a)?;
    let b = parse("b", &args.b)?;
    let sep = shape_shape(&a, &b);
    if args.json {
        println!("{}", serde_json::to_string(&SeparationRecord::from(&sep))?);
    } else {
        print!("{}", describe(&a, &b, &sep));
    }
    Ok(ExitCode::SUCCESS)
}

/// A number for people: 12 significant digits, no `-0`; scientific notation outside
/// `1e-6 ≤ |x| < 1e12` (no 300-digit numbers).
pub fn fmt_num(x: f64) -> String {
    let rounded: f64 = format!("{x:.11e}").parse().unwrap_or(x);
    let rounded = rounded + 0.0;
    if rounded != 0.0 && rounded.is_finite() && !(1e-6..1e12).contains(&rounded.abs()) {
        format!("{rounded:e}")
    } else {
        format!("{rounded}")
    }
}

/// `(x, y, z)` with [`fmt_num`].
/// Components below `1e-12 ×` the largest are rounding noise and print as 0.
pub fn fmt_point(p: &[f64]) -> String {
    let largest = p.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let show = |x: f64| fmt_num(if x.abs() < 1e-12 * largest { 0.0 } else { x });
    format!("({}, {}, {})", show(p[0]), show(p[1]), show(p[2]))
}

/// A readable multi-line summary of one answer.
pub fn describe(a: &Shape, b: &Shape, sep: &Separation) -> String {
    let verdict = if sep.distance > 0.0 {
        "apart"
    } else if sep.distance == 0.0 {
        "touching"
    } else {
        "penetrating"
    };
    format!(
        "{}–{}: distance {} m ({verdict})\n  witness on a: {}\n  witness on b: {}\n  normal a→b:   {}\n",
        a.kind(),
        b.kind(),
        fmt_num(sep.distance),
        fmt_point(sep.point_a.coords.as_slice()),
        fmt_point(sep.point_b.coords.as_slice()),
        fmt_point(sep.normal.as_slice()),
    )
}

/// The answer to one batch line, or the error to report for it.
fn answer_line(line: &str) -> std::result::Result<SeparationRecord, String> {
    if line.trim().is_empty() {
        return Err("empty line: expected a JSON object {\"a\": shape, \"b\": shape}".into());
    }
    let record: PairRecord = serde_json::from_str(line).map_err(|e| {
        let text = e.to_string();
        // serde_json appends " at line 1 column N"; the line is ours to number.
        match text.rfind(" at line ") {
            Some(i) => format!("{} (column {})", &text[..i], e.column()),
            None => text,
        }
    })?;
    let (a, b) = record.to_shapes().map_err(|e| e.to_string())?;
    Ok(SeparationRecord::from(&shape_shape(&a, &b)))
}

fn run_batch(path: &PathBuf) -> Result<ExitCode> {
    let reader: Box<dyn BufRead> = if path.as_os_str() == "-" {
        Box::new(BufReader::new(io::stdin().lock()))
    } else {
        let meta = std::fs::metadata(path)
            .with_context(|| format!("cannot open batch file {}", path.display()))?;
        if !meta.is_file() {
            anyhow::bail!(
                "cannot read batch file {}: not a regular file (give a file, or - for stdin)",
                path.display()
            );
        }
        let file = File::open(path)
            .with_context(|| format!("cannot open batch file {}", path.display()))?;
        Box::new(BufReader::new(file))
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut bad = 0usize;
    for (index, line) in reader.lines().enumerate() {
        let number = index + 1;
        let answer = match line {
            Ok(line) => answer_line(&line),
            // Invalid UTF-8 spoils one line (it has been consumed); any other read error
            // would repeat for ever: stop with one message.
            Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                Err(format!("unreadable line: {e}"))
            }
            Err(e) => {
                out.flush()?;
                anyhow::bail!(
                    "reading batch input {} failed at line {number}: {e}",
                    path.display()
                );
            }
        };
        match answer {
            Ok(record) => serde_json::to_writer(&mut out, &record)?,
            Err(error) => {
                bad += 1;
                serde_json::to_writer(
                    &mut out,
                    &serde_json::json!({"line": number, "error": error}),
                )?;
            }
        }
        out.write_all(b"\n")?;
    }
    out.flush()?;
    if bad > 0 {
        eprintln!("robocollide: {bad} bad line(s) in the batch; each is answered with its error");
        Ok(ExitCode::from(1))
    } else {
        Ok(ExitCode::SUCCESS)
    }
}
