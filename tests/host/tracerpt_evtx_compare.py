#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare two renderings of the same events as Windows' event XML.

    tracerpt_evtx_compare.py [--record-ids] WINDOWS.xml OURS.xml

WINDOWS.xml: evtxexport's XML of an .evtx Windows wrote from a trace;
OURS.xml: `nttrace tracerpt`'s dump of the same trace, or (with
--record-ids) evtxexport's XML of `nttrace tracerpt -of EVTX`'s .evtx of
it. Events are paired in order (the trace's EventTrace header, which
Windows' .evtx does not hold, is left out of ours). For each pair: every
System element and attribute but Computer (the machine each rendering
ran on), Security (the .evtx's own) and, without --record-ids,
EventRecordID (the .evtx's too), each EventData field's name and value
in order, and ProcessingErrorData's code, field and payload. TAP on
stdout: one line per kind of difference with its count and first example.
"""
import re
import sys
import xml.etree.ElementTree as ET

NS = '{http://schemas.microsoft.com/win/2004/08/events/event}'
SKIP = ['Computer', 'EventRecordID', 'Security']


def events(path):
    text = open(path, encoding='utf-8', errors='replace').read()
    for m in re.finditer(r'<Event xmlns=.*?</Event>', text, re.S):
        yield ET.fromstring(m.group(0))


def fields(e):
    out = {}
    for c in e.find(NS + 'System'):
        tag = c.tag.replace(NS, '')
        if tag in SKIP:
            continue
        if c.attrib:
            for k, v in c.attrib.items():
                out['System/%s@%s' % (tag, k)] = v
        else:
            out['System/' + tag] = (c.text or '').strip()
    data = e.find(NS + 'EventData')
    for i, d in enumerate(data if data is not None else []):
        out['EventData/%d' % i] = (d.attrib.get('Name'), (d.text or '').strip())
    err = e.find(NS + 'ProcessingErrorData')
    for c in (err if err is not None else []):
        out['ProcessingErrorData/' + c.tag.replace(NS, '')] = (c.text or '').strip()
    return out


def is_header(e):
    p = e.find(NS + 'System/' + NS + 'Provider')
    return p is not None and p.attrib.get('Name') == 'MSNT_SystemTrace' and \
        e.find(NS + 'System/' + NS + 'EventID').text == '0'


def main():
    args = sys.argv[1:]
    if args and args[0] == '--record-ids':
        SKIP.remove('EventRecordID')
        args = args[1:]
    win = [fields(e) for e in events(args[0])]
    ours = [fields(e) for e in events(args[1]) if not is_header(e)]
    n = 0
    print('# %d events from Windows, %d from nttrace' % (len(win), len(ours)))
    n += 1
    print('%s %d - as many events' % ('ok' if len(win) == len(ours) else 'not ok', n))
    diffs, first, values = {}, {}, 0
    for i, (w, o) in enumerate(zip(win, ours)):
        for k in sorted(set(w) | set(o)):
            values += 1
            if w.get(k) != o.get(k):
                kind = re.sub(r'/\d+$', '', k)
                diffs[kind] = diffs.get(kind, 0) + 1
                first.setdefault(kind, (i, w.get(k), o.get(k)))
    print('# %d values compared' % values)
    for kind in sorted(diffs):
        n += 1
        print('not ok %d - %s differs in %d events (first: event %d, Windows %r, ours %r)'
              % ((n, kind, diffs[kind]) + first[kind]))
    n += 1
    print('%s %d - every System, EventData and ProcessingErrorData value as Windows has it'
          % ('ok' if not diffs else 'not ok', n))
    print('1..%d' % n)
    return 1 if diffs or len(win) != len(ours) else 0


if __name__ == '__main__':
    sys.exit(main())
