/** The metadata port in memory: fixed values by path, every path asked recorded. */
import { GceMetadataError, type MetadataPort } from '../../src/ports/metadata-port.js';

export class FakeMetadata implements MetadataPort {
  readonly host = 'metadata.test';
  readonly asked: string[] = [];

  constructor(private readonly values: Readonly<Record<string, string>>) {}

  async get(path: string): Promise<string> {
    this.asked.push(path);
    const value = this.values[path];
    if (value === undefined) throw new GceMetadataError(path, 'not defined');
    return value;
  }
}
