//! One JSON Lines batch record, as `robocollide distance --batch` reads it: parsing never
//! panics, and every record that parses gets an answer satisfying the witness invariants.
#![no_main]

mod invariants;

use libfuzzer_sys::fuzz_target;
use robocollide::report::PairRecord;

fuzz_target!(|data: &[u8]| {
    let Ok(line) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(record) = serde_json::from_str::<PairRecord>(line) else {
        return;
    };
    if let Ok((a, b)) = record.to_shapes() {
        if a.magnitude().is_finite() && b.magnitude().is_finite() {
            invariants::check_pair(&a, &b);
        }
    }
});
