import { readFile } from 'node:fs/promises';
import { errorMessage } from '../util/error-message.js';
import { CloudConfigError } from './cloud-config-error.js';

const BYTE_ORDER_MARK = '\uFEFF';

/**
 * Reads the `--cloud-config` file as UTF-8 text, dropping one leading byte order mark (upstream
 * gcfg does the same for files written on Windows). A missing or unreadable file is a
 * `CloudConfigError` naming the file.
 */
export async function readCloudConfigFile(path: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CloudConfigError({ fileName: path, message: `cannot read cloud config file: ${describeFileError(error)}` }, { cause: error });
  }
  return text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text;
}

function describeFileError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory, not a file';
    default:
      return errorMessage(error);
  }
}
