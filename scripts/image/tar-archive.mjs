// A deterministic tar writer and a small tar reader, for image layers (scripts/image/).
//
// The writer emits POSIX ustar headers (a PAX 'x' header before an entry whose path or link target
// does not fit), entries sorted by path, every parent directory present, one fixed mtime, numeric
// owners with empty user and group names: the same entries give the same bytes on every host.
// The reader understands what `dpkg-deb --fsys-tarfile` and npm tarballs contain: ustar and GNU
// headers, GNU long names ('L', 'K') and PAX records ('x'); hard links become copies.

const BLOCK = 512;

/**
 * @typedef {object} TarEntry
 * @property {string} path      relative, no leading './' or '/', no trailing '/'
 * @property {'file'|'directory'|'symlink'} type
 * @property {number} mode      permission bits, e.g. 0o755
 * @property {number} [uid]     default 0
 * @property {number} [gid]     default 0
 * @property {Buffer} [content] for files
 * @property {string} [linkTarget] for symlinks
 */

/** Removes './', leading and trailing slashes: the canonical path of an entry. */
export function normalizeEntryPath(path) {
  let normalized = path;
  while (normalized.startsWith('./')) normalized = normalized.slice(2);
  normalized = normalized.replace(/^\/+/, '').replace(/\/+$/, '');
  return normalized === '.' ? '' : normalized;
}

function octal(value, width) {
  // width includes the terminating NUL.
  const text = value.toString(8);
  if (text.length > width - 1) throw new Error(`tar: ${value} does not fit in ${width - 1} octal digits`);
  return text.padStart(width - 1, '0') + '\0';
}

function writeString(header, text, offset, width) {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length > width) throw new Error(`tar: "${text}" is longer than ${width} bytes`);
  bytes.copy(header, offset);
}

/** Splits a path into ustar prefix (<= 155) and name (<= 100), or undefined when it cannot. */
function splitUstarPath(path) {
  if (Buffer.byteLength(path) <= 100) return { prefix: '', name: path };
  for (let index = path.indexOf('/'); index !== -1; index = path.indexOf('/', index + 1)) {
    const prefix = path.slice(0, index);
    const name = path.slice(index + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100 && name !== '') return { prefix, name };
  }
  return undefined;
}

function header({ name, prefix = '', mode, uid, gid, size, mtime, typeflag, linkname = '' }) {
  const block = Buffer.alloc(BLOCK);
  writeString(block, name, 0, 100);
  writeString(block, octal(mode, 8), 100, 8);
  writeString(block, octal(uid, 8), 108, 8);
  writeString(block, octal(gid, 8), 116, 8);
  writeString(block, octal(size, 12), 124, 12);
  writeString(block, octal(mtime, 12), 136, 12);
  block.fill(0x20, 148, 156); // checksum field counts as spaces while summing
  writeString(block, typeflag, 156, 1);
  writeString(block, linkname, 157, 100);
  writeString(block, 'ustar\0', 257, 6);
  writeString(block, '00', 263, 2);
  writeString(block, octal(0, 8), 329, 8);
  writeString(block, octal(0, 8), 337, 8);
  writeString(block, prefix, 345, 155);
  let sum = 0;
  for (const byte of block) sum += byte;
  writeString(block, `${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  return block;
}

function padding(size) {
  const remainder = size % BLOCK;
  return remainder === 0 ? Buffer.alloc(0) : Buffer.alloc(BLOCK - remainder);
}

function paxRecord(key, value) {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body);
  // The length prefix counts itself.
  while (String(length).length + Buffer.byteLength(body) !== length) length = String(length).length + Buffer.byteLength(body);
  return `${length}${body}`;
}

/**
 * Adds the missing parent directories (0755, root) and sorts by path; throws on duplicate paths.
 * @param {TarEntry[]} entries
 * @returns {TarEntry[]}
 */
export function completeAndSort(entries) {
  const byPath = new Map();
  for (const entry of entries) {
    const path = normalizeEntryPath(entry.path);
    if (path === '') continue;
    if (byPath.has(path)) throw new Error(`tar: two entries for ${path}`);
    byPath.set(path, { ...entry, path });
  }
  for (const path of [...byPath.keys()]) {
    const parts = path.split('/');
    for (let length = 1; length < parts.length; length += 1) {
      const parent = parts.slice(0, length).join('/');
      const existing = byPath.get(parent);
      if (existing === undefined) byPath.set(parent, { path: parent, type: 'directory', mode: 0o755 });
      else if (existing.type !== 'directory') throw new Error(`tar: ${parent} is a ${existing.type} but ${path} is below it`);
    }
  }
  const key = (entry) => (entry.type === 'directory' ? `${entry.path}/` : entry.path);
  return [...byPath.values()].sort((left, right) => (key(left) < key(right) ? -1 : key(left) > key(right) ? 1 : 0));
}

/**
 * The tar archive of `entries` (completed and sorted), every mtime set to `mtime` (seconds).
 * @param {TarEntry[]} entries
 * @param {{ mtime: number }} options
 * @returns {Buffer}
 */
export function writeTar(entries, { mtime }) {
  const chunks = [];
  for (const entry of completeAndSort(entries)) {
    const path = entry.type === 'directory' ? `${entry.path}/` : entry.path;
    const content = entry.type === 'file' ? (entry.content ?? Buffer.alloc(0)) : Buffer.alloc(0);
    const linkname = entry.type === 'symlink' ? (entry.linkTarget ?? '') : '';
    const typeflag = entry.type === 'directory' ? '5' : entry.type === 'symlink' ? '2' : '0';
    let split = splitUstarPath(path);
    const records = [];
    if (split === undefined) {
      records.push(paxRecord('path', path));
      split = { prefix: '', name: path.slice(-99).replace(/^[^/]*\//, '') || 'long-name' };
    }
    let shortLink = linkname;
    if (Buffer.byteLength(linkname) > 100) {
      records.push(paxRecord('linkpath', linkname));
      shortLink = '';
    }
    const owner = { uid: entry.uid ?? 0, gid: entry.gid ?? 0 };
    if (records.length > 0) {
      const body = Buffer.from(records.join(''), 'utf8');
      chunks.push(header({ name: `PaxHeaders/${split.name}`.slice(0, 100), mode: 0o644, uid: 0, gid: 0, size: body.length, mtime, typeflag: 'x' }), body, padding(body.length));
    }
    chunks.push(header({ ...split, mode: entry.mode & 0o7777, ...owner, size: content.length, mtime, typeflag, linkname: shortLink }));
    if (content.length > 0) chunks.push(content, padding(content.length));
  }
  chunks.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(chunks);
}

function readString(block, offset, width) {
  const slice = block.subarray(offset, offset + width);
  const end = slice.indexOf(0);
  return slice.subarray(0, end === -1 ? width : end).toString('utf8');
}

function readOctal(block, offset, width) {
  const text = readString(block, offset, width).trim();
  return text === '' ? 0 : Number.parseInt(text, 8);
}

function parsePax(body) {
  const records = {};
  let offset = 0;
  while (offset < body.length) {
    const space = body.indexOf(0x20, offset);
    if (space === -1) break;
    const length = Number(body.subarray(offset, space).toString('utf8'));
    if (!Number.isInteger(length) || length <= 0) break;
    const record = body.subarray(space + 1, offset + length - 1).toString('utf8');
    const equals = record.indexOf('=');
    records[record.slice(0, equals)] = record.slice(equals + 1);
    offset += length;
  }
  return records;
}

/**
 * The entries of a tar archive (files, directories, symlinks; hard links as copies of their
 * target; other types skipped), in archive order.
 * @param {Buffer} archive
 * @returns {TarEntry[]}
 */
export function readTar(archive) {
  const entries = [];
  const files = new Map();
  let offset = 0;
  let longName;
  let longLink;
  let pax = {};
  while (offset + BLOCK <= archive.length) {
    const block = archive.subarray(offset, offset + BLOCK);
    if (block.every((byte) => byte === 0)) break;
    const size = readOctal(block, 124, 12);
    const typeflag = String.fromCharCode(block[156] || 0x30);
    const body = archive.subarray(offset + BLOCK, offset + BLOCK + size);
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (typeflag === 'L') { longName = readString(body, 0, body.length); continue; }
    if (typeflag === 'K') { longLink = readString(body, 0, body.length); continue; }
    if (typeflag === 'x') { pax = parsePax(body); continue; }
    if (typeflag === 'g') continue;
    const magic = readString(block, 257, 6);
    const prefix = magic.startsWith('ustar') && block[345] !== 0 && readString(block, 263, 2) === '00' ? readString(block, 345, 155) : '';
    const rawName = pax.path ?? longName ?? (prefix === '' ? readString(block, 0, 100) : `${prefix}/${readString(block, 0, 100)}`);
    const linkTarget = pax.linkpath ?? longLink ?? readString(block, 157, 100);
    longName = undefined;
    longLink = undefined;
    pax = {};
    const path = normalizeEntryPath(rawName);
    if (path === '') continue;
    const common = { path, mode: readOctal(block, 100, 8), uid: readOctal(block, 108, 8), gid: readOctal(block, 116, 8) };
    if (typeflag === '0' || typeflag === '7') {
      const content = Buffer.from(body);
      files.set(path, content);
      entries.push({ ...common, type: 'file', content });
    } else if (typeflag === '1') {
      const content = files.get(normalizeEntryPath(linkTarget));
      if (content === undefined) throw new Error(`tar: hard link ${path} to ${linkTarget}, which comes later or not at all`);
      entries.push({ ...common, type: 'file', content });
    } else if (typeflag === '2') {
      entries.push({ ...common, type: 'symlink', linkTarget });
    } else if (typeflag === '5') {
      entries.push({ ...common, type: 'directory' });
    }
  }
  return entries;
}
