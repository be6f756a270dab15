import { describe, expect, it } from 'vitest';
import { defineAnnotations } from './annotation-definition.js';
import { describeInputStatus } from './input-status.js';
import { renderAnnotationTable, renderConfigKeyTable } from './render-input-tables.js';

describe('reference tables', () => {
  it('spells the three statuses one way', () => {
    expect(describeInputStatus('supported')).toBe('supported');
    expect(describeInputStatus('accepted-and-ignored', 'no Barbican')).toBe('accepted and ignored: no Barbican');
    expect(describeInputStatus('not-supported', 'use X')).toBe('not supported: use X');
  });

  it('renders annotations with the provider\'s extra columns, escaping cells', () => {
    const registry = defineAnnotations({
      a: { key: 'x/a', defaultValue: 'a|b', status: 'supported', description: 'One\nline.', columns: { 'Applies to': 'both' } },
      b: { key: 'x/b', defaultValue: '', status: 'not-supported', reason: 'never', description: 'B.', columns: { 'Applies to': 'internal' } },
    });
    expect(renderAnnotationTable(Object.values(registry), { columns: ['Applies to'] })).toEqual([
      '| Annotation | Applies to | Default | Status | Description |',
      '| --- | --- | --- | --- | --- |',
      '| `x/a` | both | a\\|b | supported | One line. |',
      '| `x/b` | internal | (none) | not supported: never | B. |',
    ]);
    expect(() => renderAnnotationTable([{ key: 'x/c', defaultValue: '', status: 'supported', description: '' }], { columns: ['Applies to'] })).toThrow(/no "Applies to" column/);
  });

  it('renders config keys', () => {
    expect(renderConfigKeyTable([{ name: 'zone', type: 'string', defaultValue: '(empty)', status: 'accepted-and-ignored', note: 'unused', description: 'The zone.', columns: { Environment: '`ZONE`' } }], { columns: ['Environment'] })).toEqual([
      '| Key | Type | Default | Environment | Status | Description |',
      '| --- | --- | --- | --- | --- | --- |',
      '| `zone` | string | (empty) | `ZONE` | accepted and ignored: unused | The zone. |',
    ]);
  });
});
