# Print the SASS of the named kernels from sass.txt (cuobjdump --dump-sass), one instruction a line
import re, sys
text = open('sass.txt').read()
for name in sys.argv[1:]:
    m = re.search(r'Function : ' + re.escape(name) + r'\n(.*?)\n\s*\.{10,}', text, re.S)
    if not m: print('no', name); continue
    print('==', name)
    for l in m.group(1).splitlines():
        g = re.match(r'\s*/\*[0-9a-f]{4}\*/\s*(.*?)\s*;', l)
        if g and g.group(1) != 'NOP': print('  ', g.group(1))
