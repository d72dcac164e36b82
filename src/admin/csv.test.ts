import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv';

describe('CSV export (RFC 4180)', () => {
  it('quotes commas, quotes, line breaks and edge spaces, doubling quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "no"')).toBe('"say ""no"""');
    expect(csvCell('line 1\nline 2')).toBe('"line 1\nline 2"');
    expect(csvCell('cr\r')).toBe('"cr\r"');
    expect(csvCell(' padded ')).toBe('" padded "');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(false)).toBe('false');
  });

  it('keeps amounts exactly as the server sent them', () => {
    for (const amount of ['0.000001', '25000.000001', '-12.50', '100000000000.123456', '1e21'])
      expect(csvCell(amount)).toBe(amount);
  });

  it('defuses text a spreadsheet would run as a formula, but not negative numbers', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell('+1+1')).toBe("'+1+1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('-7')).toBe('-7');
  });

  it('writes a header line and CRLF line ends', () => {
    const rows = [
      { id: 'w1', who: 'Smith, J.', amount: '1.10', note: 'he said "ok"\nthen left' },
      { id: 'w2', who: '李雷', amount: '-0.000001', note: null },
    ];
    const csv = toCsv(rows, [
      { header: 'id', value: (r) => r.id },
      { header: 'member, name', value: (r) => r.who },
      { header: 'amount', value: (r) => r.amount },
      { header: 'note', value: (r) => r.note },
    ]);
    expect(csv).toBe(
      'id,"member, name",amount,note\r\n' +
        'w1,"Smith, J.",1.10,"he said ""ok""\nthen left"\r\n' +
        'w2,李雷,-0.000001,\r\n',
    );
  });
});
