import PDFDocument from 'pdfkit';

/** What a tax invoice's PDF shows: the stored invoice and its lines, nothing computed anew but the layout. */
export interface InvoiceDocument {
  number: string;
  issue_date: string;
  period: string;
  supplier_name: string;
  supplier_abn: string;
  recipient_name: string;
  subtotal_cents: number;
  gst_cents: number;
  total_cents: number;
  lines: { description: string; quantity: number; unit_cents: number; amount_cents: number }[];
}

/** $1,234.56 from integer cents. */
export const money = (cents: number) => {
  const c = Number(cents);
  const s = (Math.abs(c) / 100).toLocaleString('en-AU', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return `${c < 0 ? '-' : ''}$${s}`;
};
/** An ABN as printed: 51 824 753 556. */
export const formatAbn = (abn: string) => `${abn.slice(0, 2)} ${abn.slice(2, 5)} ${abn.slice(5, 8)} ${abn.slice(8)}`;
const formatDate = (iso: string) => {
  const [y, m, d] = iso.split('-');
  return `${d}/${m}/${y}`;
};

/**
 * Renders a tax invoice (the ATO's required content: the words 'Tax invoice', the supplier's name and
 * ABN, the date, the recipient, each line, the GST shown separately and the total) with pdfkit's
 * built-in Helvetica, which every reader opens without embedded fonts.
 */
export function renderInvoicePdf(inv: InvoiceDocument): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: `Tax invoice ${inv.number}`, Author: inv.supplier_name } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const left = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;

  doc.font('Helvetica-Bold').fontSize(22).text('Tax invoice', left, 56);
  doc.font('Helvetica').fontSize(10).moveDown(0.3);
  doc.text(inv.supplier_name);
  doc.text(`ABN ${formatAbn(inv.supplier_abn)}`);

  const metaTop = 56;
  const metaX = left + width - 200;
  doc.fontSize(10);
  const meta: [string, string][] = [
    ['Invoice number', inv.number],
    ['Invoice date', formatDate(inv.issue_date)],
    ['Period', new Date(`${inv.period}-01T00:00:00Z`).toLocaleDateString('en-AU', { month: 'long', year: 'numeric', timeZone: 'UTC' })],
  ];
  meta.forEach(([k, v], i) => {
    doc.font('Helvetica-Bold').text(k, metaX, metaTop + i * 16, { width: 95 });
    doc.font('Helvetica').text(v, metaX + 95, metaTop + i * 16, { width: 105, align: 'right' });
  });

  doc.font('Helvetica-Bold').fontSize(10).text('Bill to', left, 150);
  doc.font('Helvetica').text(inv.recipient_name, left, 165);

  // The table: description, quantity, unit price, amount (ex GST).
  const cols = [
    { title: 'Description', x: left, w: width - 270, align: 'left' as const },
    { title: 'Quantity', x: left + width - 270, w: 70, align: 'right' as const },
    { title: 'Unit price', x: left + width - 200, w: 90, align: 'right' as const },
    { title: 'Amount', x: left + width - 110, w: 110, align: 'right' as const },
  ];
  let y = 210;
  doc.rect(left, y - 6, width, 22).fill('#eef1f5');
  doc.fillColor('#000').font('Helvetica-Bold');
  for (const c of cols) doc.text(c.title, c.x + (c.align === 'left' ? 6 : 0), y, { width: c.w - 6, align: c.align });
  y += 24;
  doc.font('Helvetica');
  for (const l of inv.lines) {
    const cells = [l.description, String(l.quantity), money(l.unit_cents), money(l.amount_cents)];
    cols.forEach((c, i) => {
      doc.text(cells[i], c.x + (c.align === 'left' ? 6 : 0), y, { width: c.w - 6, align: c.align });
    });
    y += 20;
    doc
      .moveTo(left, y - 5)
      .lineTo(left + width, y - 5)
      .strokeColor('#d0d5dc')
      .lineWidth(0.5)
      .stroke();
  }
  y += 10;
  const totals: [string, string, boolean][] = [
    ['Subtotal (excluding GST)', money(inv.subtotal_cents), false],
    ['GST (10%)', money(inv.gst_cents), false],
    ['Total (AUD, including GST)', money(inv.total_cents), true],
  ];
  for (const [k, v, bold] of totals) {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica');
    doc.text(k, left + width - 310, y, { width: 200, align: 'right' });
    doc.text(v, left + width - 110, y, { width: 104, align: 'right' });
    y += 18;
  }
  doc
    .font('Helvetica')
    .fontSize(8)
    .fillColor('#555')
    .text(`Amounts in Australian dollars. ${inv.supplier_name}, ABN ${formatAbn(inv.supplier_abn)}.`, left, y + 30, { width });
  doc.end();
  return done;
}
