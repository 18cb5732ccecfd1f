//! `--password` / `--key`: the secret of an encrypted Godot file (`GDEC`), or the
//! `GAMEWIRE_GODOT_PASSWORD` / `GAMEWIRE_GODOT_KEY` environment variables (which keep
//! it off the command line, where other users' `ps` can read it).

use gamewire::open::Secret;

/// The password or key options.
#[derive(clap::Args, Debug, Default, Clone)]
pub struct SecretArgs {
    /// Godot: the password of an encrypted file (`open_encrypted_with_pass`); also
    /// `GAMEWIRE_GODOT_PASSWORD`.
    #[arg(long, value_name = "TEXT", conflicts_with = "key")]
    pub password: Option<String>,
    /// Godot: the 32-byte key of an encrypted file (`open_encrypted`), as 64 hex
    /// digits; also `GAMEWIRE_GODOT_KEY`.
    #[arg(long, value_name = "HEX")]
    pub key: Option<String>,
}

impl SecretArgs {
    /// The secret given: the options first, then the environment.
    pub fn secret(&self) -> Result<Option<Secret>, crate::CliError> {
        if let Some(p) = &self.password {
            return Ok(Some(Secret::Password(p.clone())));
        }
        if let Some(k) = &self.key {
            return Ok(Some(Secret::key_hex(k).map_err(|e| format!("--key: {e}"))?));
        }
        Ok(Secret::from_env()?)
    }
}
