//! Reading a content bundle folder from disk: the one place the runtime touches a file system.

use std::path::{Path, PathBuf};
use turnstile_core::BundleSource;

/// The largest bundle read from disk, in bytes.
pub const MAX_BUNDLE_BYTES: u64 = 256 * 1024 * 1024;

/// Why a bundle folder could not be read (exit code 3 on the command line).
#[derive(Debug, thiserror::Error)]
pub enum BundleReadError {
    /// The folder or a file in it could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The folder has no `bundle.json`.
    #[error("{0} is not a content bundle: it has no bundle.json")]
    NoManifest(PathBuf),
    /// The folder is larger than [`MAX_BUNDLE_BYTES`].
    #[error("{0} holds more than {MAX_BUNDLE_BYTES} bytes")]
    TooLarge(PathBuf),
    /// A file name is not UTF-8.
    #[error("file name {0:?} is not UTF-8")]
    BadName(PathBuf),
}

/// Reads every file under `dir` (hidden files and folders excepted) into a [`BundleSource`]
/// keyed by `/`-separated relative paths.
pub fn read_bundle_dir(dir: &Path) -> Result<BundleSource, BundleReadError> {
    if !dir.join(turnstile_core::content::MANIFEST_FILE).is_file() {
        if !dir.is_dir() {
            return Err(BundleReadError::Io {
                path: dir.to_owned(),
                source: std::io::Error::new(std::io::ErrorKind::NotFound, "not a folder"),
            });
        }
        return Err(BundleReadError::NoManifest(dir.to_owned()));
    }
    let mut source = BundleSource::new();
    let mut total = 0u64;
    let mut pending = vec![dir.to_owned()];
    while let Some(folder) = pending.pop() {
        let io = |source| BundleReadError::Io {
            path: folder.clone(),
            source,
        };
        let mut entries = std::fs::read_dir(&folder)
            .map_err(io)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(io)?;
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let path = entry.path();
            let name = entry.file_name();
            let name = name
                .to_str()
                .ok_or_else(|| BundleReadError::BadName(path.clone()))?;
            if name.starts_with('.') {
                continue;
            }
            let kind = entry.file_type().map_err(|source| BundleReadError::Io {
                path: path.clone(),
                source,
            })?;
            if kind.is_dir() {
                pending.push(path);
            } else {
                let bytes = std::fs::read(&path).map_err(|source| BundleReadError::Io {
                    path: path.clone(),
                    source,
                })?;
                total += bytes.len() as u64;
                if total > MAX_BUNDLE_BYTES {
                    return Err(BundleReadError::TooLarge(dir.to_owned()));
                }
                let relative = path
                    .strip_prefix(dir)
                    .expect("walked paths are under the root")
                    .components()
                    .map(|c| c.as_os_str().to_str().unwrap_or_default().to_owned())
                    .collect::<Vec<_>>()
                    .join("/");
                source.insert(relative, bytes);
            }
        }
    }
    Ok(source)
}
