//! Rules chosen by the first byte of the input: every variant, with and without options.

use morris_core::{DoubleMill, MillRemoval, Rules, Variant};

/// The rules a byte selects: the variant from its low bits, options from its high bits.
pub fn rules(byte: u8) -> Rules {
    let mut rules = Variant::ALL[usize::from(byte) % Variant::ALL.len()].rules();
    if byte & 0x40 != 0 {
        rules.double_mill = DoubleMill::PerMill;
    }
    match byte >> 7 {
        1 if byte & 0x20 != 0 => rules.mill_removal = MillRemoval::Always,
        1 => rules.mill_removal = MillRemoval::Never,
        _ => {}
    }
    rules
}

/// Checks what every position must satisfy, and that asking it anything does not panic.
pub fn check_position(pos: &morris_core::Position) {
    use morris_core::Position;
    assert_eq!(pos.hash(), pos.compute_hash());
    let text = pos.fen();
    let read = Position::from_fen(*pos.rules(), &text).expect("a written position reads back");
    assert_eq!(&read, pos, "{text}");
    let plies = pos.legal_plies();
    assert_eq!(pos.count_legal(), plies.len());
    let _ = pos.outcome();
    let board = pos.board();
    for &ply in plies.iter().take(64) {
        assert!(pos.is_legal(ply));
        let written = ply.display(board).to_string();
        assert_eq!(
            pos.parse_ply(&written).ok(),
            Some(ply),
            "{written} in {text}"
        );
        let mut next = *pos;
        next.play_unchecked(ply);
        assert_eq!(next.hash(), next.compute_hash());
    }
    let _ = pos.canonical();
    let _ = morris_core::draw_board(pos);
}
