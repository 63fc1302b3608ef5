//! The one error of the binary: a message that ends the program with status 2.

/// An error that ends the program with status 2 and one `error:` line.
pub struct Failure(pub String);

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(e: E) -> Failure {
        Failure(e.to_string())
    }
}
