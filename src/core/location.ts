/**
 * What a location a server sent is, once put on its real path (the contract of
 * service/locations.ts `locate`, shared with the adapters that follow a definition): inside the
 * workspace, external, or refused with the reason. Types only.
 */

/** Why a location is refused (never quoted, never written). */
export type LocationRefusal =
  /** untitled:, jdt:, a library's virtual document: no file to point at */
  | 'not_file_uri'
  /** the link's or the real file's name is a secret name (.env, id_rsa, *.pem …) */
  | 'secret_name'
  /** the text holds a private-key block, whatever the file is called */
  | 'private_key'
  /** writes only: a path whose real path is outside the root */
  | 'outside_root'
  /** writes only: a symlink inside the root whose target is outside it */
  | 'link_out_of_root'
  /** writes only: a directory, a device, a FIFO … */
  | 'not_regular_file'
  /** writes only: no such file */
  | 'missing';

export type Located =
  /** `abs` is the real path inside the root, `file` relative to it; `via` the path the server named when a symlink led there. */
  | { where: 'inside'; abs: string; file: string; via?: string }
  /** `abs` (= `file`) is the real path outside the root; `library` when its text may be quoted (library code). */
  | { where: 'external'; abs: string; file: string; library: boolean; via?: string }
  | { where: 'refused'; reason: LocationRefusal; abs?: string; file: string; message: string };
