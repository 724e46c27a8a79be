/** Every oEmbed behaviour (suites/core/oembed.spec.ts) fails against at least one named fault. */
import { coreFaults } from '../../faults/core/index.ts';
import { faultSuite } from './support.ts';

/** WordPress already behaves like this fault (a genuine deviation): it is shown on the reference server. */
const ON_REFERENCE = ['oembed.proxy-dimensions-unchecked'];

faultSuite('oEmbed behaviours catch oEmbed faults', {
  only: '^oembed\\.',
  faults: coreFaults.filter((f) => f.id.startsWith('oembed.') && !ON_REFERENCE.includes(f.id)),
  genuine: {
    // Part 4 › oEmbed: "maxwidth (integer, pixels, default 600)"; WordPress sanitizes it with
    // absint and never type-checks it, so maxwidth=wide is answered 200.
    'oembed.proxy.maxwidth.validated': 'maxwidth=wide accepted',
    // Part 4 › oEmbed: "maxheight (integer, pixels)"; same absint sanitizer, no type check.
    'oembed.proxy.maxheight.validated': 'maxheight=tall accepted',
  },
  // Why each group is sound: no fault changes what another fault's named behaviours observe.
  groups: [
    // requests without url (only the url-required checks send none); embed answers' version and
    // html (only embed.data reads them); embed maxwidth (only the clamp check sends one);
    // anonymous proxy requests (url-required and discover use credentials); proxy discover.
    // Also embeds asked for format=xml (only oembed.format.xml sends them).
    ['oembed.url-not-required', 'oembed.data-incomplete', 'oembed.maxwidth-ignored', 'oembed.proxy-without-auth', 'oembed.proxy-discover-unchecked', 'oembed.embed-xml-as-json'],
    // every embed with url answered 404; the proxy's format (proxy.format uses the proxy only).
    ['oembed.post-url-refused', 'oembed.proxy-format-unchecked'],
    // embeds without maxwidth (unknown-url's 404 stays a 404 whatever the width); 404 embeds;
    // anonymous proxy requests (anonymous-validation only).
    // Also authenticated proxy requests without maxwidth (only oembed.proxy.defaults sends them; the
    // anonymous ones of anonymous-validation are refused whatever the width).
    ['oembed.maxwidth-default-wrong', 'oembed.unknown-url-accepted', 'oembed.proxy-auth-before-validation', 'oembed.proxy-maxwidth-default-wrong'],
    // turns most embed answers into XML: alone.
    ['oembed.format-default-xml'],
  ],
});

// The reference server passes every oEmbed behaviour, the two WordPress fails included.
faultSuite('oEmbed behaviours on the reference server', {
  target: 'reference',
  only: '^oembed\\.',
  faults: coreFaults.filter((f) => ON_REFERENCE.includes(f.id)),
});
