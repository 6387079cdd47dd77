import { initParser, parse } from '../../../runtime/python/parser';
(async () => {
  await initParser();
  const src = require('fs').readFileSync(0, 'utf8');
  const t = parse(src);
  const walk = (n: any, d = 0, f = '') => { console.log(' '.repeat(d) + (f ? f + ': ' : '') + (n.isMissing ? 'MISSING ' : '') + n.type, JSON.stringify(n.startPosition), n.childCount ? '' : JSON.stringify(n.text)); for (let i = 0; i < n.childCount; i++) walk(n.child(i), d + 1, n.fieldNameForChild(i) ?? ''); };
  walk(t.rootNode);
})();
