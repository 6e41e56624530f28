//! Times TedDriggs' `diplomacy` crate on the cases bench/engine_vs_rust.py writes to its stdin.
//!
//! Input, one item a line: `U <unit>` (a unit on the board, e.g. `U ENGLAND: F lon`), `O <order>`
//! (the crate's own order syntax, e.g. `O ENGLAND: F lon -> nth`), `=` (the case ends), `END` (the
//! cases end). Then commands, each answered with one line:
//! `ROUND`: every case submitted, adjudicated and its outcomes read once; each case's nanoseconds by
//! the wall clock, then `|`, then each case's nanoseconds of this thread's CPU time.
//! `CHECK`: each case's moves that succeed, as a count (the bench compares them with ours).
//! `DETAIL <n>`: case n's orders with the state of each, `|`-separated (for reading a difference).
//! `QUIT`.
use diplomacy::geo::{standard_map, Map, RegionKey};
use diplomacy::judge::{MappedMainOrder, OrderState, Rulebook, Submission};
use diplomacy::{Command, UnitPosition};
use std::hint::black_box;
use std::io::{self, BufRead, Write};
use std::time::Instant;

struct Case {
    units: Vec<UnitPosition<'static, RegionKey>>,
    orders: Vec<MappedMainOrder>,
}

/// This thread's CPU time in nanoseconds (CLOCK_THREAD_CPUTIME_ID, as Python's time.thread_time).
fn thread_cpu_ns() -> u128 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes the timespec it is given and nothing else
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as u128 * 1_000_000_000 + t.tv_nsec as u128
}

fn read_cases(lines: &mut impl Iterator<Item = String>) -> Vec<Case> {
    let mut cases = vec![];
    let mut current = Case { units: vec![], orders: vec![] };
    for line in lines {
        let line = line.trim();
        if line == "END" {
            break;
        } else if line == "=" {
            cases.push(std::mem::replace(&mut current, Case { units: vec![], orders: vec![] }));
        } else if let Some(unit) = line.strip_prefix("U ") {
            current.units.push(unit.parse().unwrap_or_else(|e| panic!("unit {unit:?}: {e:?}")));
        } else if let Some(order) = line.strip_prefix("O ") {
            current.orders.push(order.parse().unwrap_or_else(|e| panic!("order {order:?}: {e:?}")));
        } else if !line.is_empty() {
            panic!("unexpected line {line:?}");
        }
    }
    cases
}

/// One case as the bench times it: the orders submitted against the board (illegal ones found, holds
/// made for units without orders), adjudicated, and every order's outcome read.
fn resolve(map: &Map, case: &Case, orders: Vec<MappedMainOrder>) -> usize {
    let submission = Submission::new(map, &case.units, orders);
    let outcome = submission.adjudicate(Rulebook::default());
    outcome
        .all_orders_with_outcomes()
        .filter(|(_, o)| OrderState::from(*o) == OrderState::Succeeds)
        .count()
}

/// The submitted moves that succeed (the units that move: what both engines mean alike by success).
fn moves_succeeding(map: &Map, case: &Case) -> usize {
    let submission = Submission::new(map, &case.units, case.orders.clone());
    let outcome = submission.adjudicate(Rulebook::default());
    submission
        .submitted_orders()
        .filter(|o| o.command.is_move() && outcome.get(o).map(OrderState::from) == Some(OrderState::Succeeds))
        .count()
}

fn main() {
    let map = standard_map();
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines().map(|l| l.expect("stdin"));
    let cases = read_cases(&mut lines);
    let mut out = io::stdout().lock();
    for command in lines {
        match command.trim() {
            "ROUND" => {
                let (mut wall, mut cpu) = (Vec::with_capacity(cases.len()), Vec::with_capacity(cases.len()));
                for case in &cases {
                    let orders = case.orders.clone(); // outside the clock: Submission takes its own copy
                    let (t, c) = (Instant::now(), thread_cpu_ns());
                    black_box(resolve(map, case, black_box(orders)));
                    let c = thread_cpu_ns() - c;
                    wall.push(t.elapsed().as_nanos().to_string());
                    cpu.push(c.to_string());
                }
                writeln!(out, "{} | {}", wall.join(" "), cpu.join(" ")).unwrap();
            }
            "CHECK" => {
                let counts: Vec<String> = cases.iter().map(|c| moves_succeeding(map, c).to_string()).collect();
                writeln!(out, "{}", counts.join(" ")).unwrap();
            }
            command if command.starts_with("DETAIL ") => {
                let case = &cases[command[7..].parse::<usize>().expect("a case number")];
                let submission = Submission::new(map, &case.units, case.orders.clone());
                let outcome = submission.adjudicate(Rulebook::default());
                let states: Vec<String> = outcome
                    .all_orders_with_outcomes()
                    .map(|(order, o)| format!("{order}={o:?}"))
                    .collect();
                writeln!(out, "{}", states.join("|")).unwrap();
            }
            "QUIT" => break,
            other => panic!("unknown command {other:?}"),
        }
        out.flush().unwrap();
    }
}
