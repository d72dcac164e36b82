// @vitest-environment node
/**
 * The amount component's no-wrap rule (issue 26), measured in headless Chromium at 360 px with the app's own
 * stylesheets, in en-US, de-DE, ar-SA (right to left) and zh-CN: the figures of a position card (three
 * columns), a contract preview (stacked label/value rows, both sides), an order-book row in the trade
 * screen's narrow column, the assets total and a product's details. Every figure lies on one line inside its
 * card; one too wide for its box is cut with an ellipsis and keeps its exact value in its title.
 */
import { createInstance } from 'i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { appStyles, LAYOUT_LOCALES, layoutPage, phoneBrowser, stringsOf } from '../../tests/app/layout-kit';
import { Amount } from './Amount';

const STYLES = appStyles(
  'src/ui/forms.css',
  'src/ui/market.css',
  'src/ui/wallet.css',
  'src/ui/ui.css',
  'src/ui/amount.css',
  'src/features/trade/trade.css',
);

type Labels = Record<string, Record<string, Record<string, string> | string>>;
const labelsOf = (locale: string) => stringsOf<Labels>(locale);

function Screen({ labels }: { labels: Labels }) {
  const trade = labels.trade as Record<string, string> & { preview: Record<string, string> };
  const sides = labels.trade?.sides as Record<string, string>;
  const finance = labels.finance as Record<string, string>;
  const cell = (label: string, figure: React.ReactNode) => (
    <div>
      <dt>{label}</dt>
      <dd>{figure}</dd>
    </div>
  );
  const both = (long: React.ReactNode, short: React.ReactNode) => (
    <>
      <span className="figure-line">
        <span className="figure-side">{sides.long}</span>
        {long}
      </span>
      <span className="figure-line">
        <span className="figure-side">{sides.short}</span>
        {short}
      </span>
    </>
  );
  return (
    <main className="page">
      <section className="card" data-testid="position">
        <dl className="stat-grid">
          {cell(trade.size!, <Amount value="0.5" kind="quantity" symbol="BTC/USDT" />)}
          {cell(trade.entry!, <Amount value="132863.07" kind="price" symbol="BTC/USDT" />)}
          {cell(trade.mark!, <Amount value="133141.19" kind="price" symbol="BTC/USDT" />)}
          {cell(trade.margin!, <Amount value="6643.153500" />)}
          {cell(trade.unrealised!, <Amount value="139.0612" sign />)}
          {cell(trade.liquidation!, <Amount value="123446.735" kind="price" symbol="BTC/USDT" />)}
          {cell(trade.margin!, <Amount value="123456789012.345678" unit="USDT" />)}
        </dl>
      </section>
      <div className="trade-grid">
        <section className="card" data-testid="preview">
          <dl className="figure-rows">
            {cell(
              trade.preview.fillPrice!,
              both(
                <Amount value="132812.3821" kind="price" symbol="BTC/USDT" />,
                <Amount value="132790.8452" kind="price" symbol="BTC/USDT" />,
              ),
            )}
            {cell(
              trade.preview.margin!,
              both(<Amount value="6709.78" unit="USDT" />, <Amount value="6708.92" unit="USDT" />),
            )}
            {cell(
              trade.preview.liquidation!,
              both(
                <Amount value="123397.2130" kind="price" symbol="BTC/USDT" />,
                <Amount value="142184.4026" kind="price" symbol="BTC/USDT" />,
              ),
            )}
          </dl>
        </section>
        <section className="card book-card" data-testid="book">
          <ul className="book-side">
            <li>
              <button type="button" className="book-row down-text">
                <Amount value="133138.08" kind="price" symbol="BTC/USDT" className="book-price" />{' '}
                <Amount value="0.9134" kind="quantity" symbol="BTC/USDT" className="book-qty" />
              </button>
            </li>
            <li>
              <button type="button" className="book-row up-text">
                <Amount value="0.32115" kind="price" symbol="DOGE/USDT" className="book-price" />{' '}
                <Amount value="1234567.8912" kind="quantity" symbol="DOGE/USDT" className="book-qty" />
              </button>
            </li>
          </ul>
        </section>
      </div>
      <section className="hero" data-testid="total">
        <p className="hero-amount">
          <Amount value="15599437766.437766" /> <span className="unit">USDT</span>
        </p>
      </section>
      <section className="card" data-testid="product">
        <dl className="figure-rows">
          {cell(finance.totalAmount!, <Amount value="1000000" unit="USDT" />)}
          {cell(finance.remaining!, <Amount value="999999.999999" unit="USDT" />)}
          {cell(finance.dailyRate!, <Amount value="0.0345" kind="percent" decimals={4} unit="%" />)}
        </dl>
      </section>
    </main>
  );
}

function page(locale: string): string {
  const i18n = createInstance();
  void i18n.init({ lng: locale, resources: {}, initAsync: false });
  const body = renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <Screen labels={labelsOf(locale)} />
    </I18nextProvider>,
  );
  return layoutPage(locale, STYLES, body);
}

interface Measured {
  text: string;
  title: string;
  lines: number;
  cut: boolean;
  outside: boolean;
}

const chromium = phoneBrowser();

describe('Amount: a figure never wraps inside itself at 360 px', () => {
  it.each(LAYOUT_LOCALES)('%s', async (locale) => {
    const figures = await chromium.open(locale, page(locale), (tab) =>
      tab.$$eval('.amount', (elements) =>
        elements.map((el): Measured => {
          const box = el.getBoundingClientRect();
          const style = getComputedStyle(el);
          // One line: the box is no taller than one line of its own font (a wrapped figure is two).
          const line = Number.parseFloat(style.lineHeight) || Number.parseFloat(style.fontSize) * 1.6;
          const card = el.closest('section')?.getBoundingClientRect();
          return {
            text: el.textContent ?? '',
            title: el.getAttribute('title') ?? '',
            lines: Math.round(box.height / line),
            cut: el.scrollWidth > el.clientWidth + 1,
            outside: !card || box.left < card.left - 0.5 || box.right > card.right + 0.5,
          };
        }),
      ),
    );
    expect(figures.length).toBe(21);
    for (const f of figures) {
      expect(f.lines, `${f.text} on one line`).toBe(1);
      expect(f.outside, `${f.text} inside its card`).toBe(false);
      // A cut figure keeps its exact value for whoever needs it.
      if (f.cut) expect(f.title.replace(/\D/g, '')).toContain(f.text.replace(/\D/g, ''));
    }
    // The 123-billion margin does not fit a third of the card: it is cut, never wrapped.
    expect(figures.some((f) => f.cut && f.title.startsWith('123'))).toBe(true);
  });
});
