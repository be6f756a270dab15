import { describe, expect, it } from 'vitest';
import { OutputBuffer } from './output-buffer.js';

describe('OutputBuffer', () => {
  it('keeps everything below the limit', () => {
    const buffer = new OutputBuffer(100);
    buffer.append('one\n');
    buffer.append('two\n');
    expect(buffer.text()).toBe('one\ntwo\n');
    expect(buffer.tail(1)).toBe('two');
    expect(buffer.includes('one')).toBe(true);
  });

  it('drops the oldest chunks past the limit and says so', () => {
    const buffer = new OutputBuffer(10);
    buffer.append('aaaaaa\n');
    buffer.append('bbbbbb\n');
    expect(buffer.text()).toBe('[... 7 earlier characters dropped ...]\nbbbbbb\n');
    expect(buffer.includes('aaaaaa')).toBe(false);
  });
});
