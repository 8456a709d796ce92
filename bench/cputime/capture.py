#!/usr/bin/env python3
# capture.py ROUNDS N [pty]: capture end to end against a bare reader, for
# issue 21's capture rows in BENCHMARKS.md. `ctx bench reader [--pty] -- seq
# 1 N` and, for each NAME=BINARY in $BINS (binaries in $DIR), `BINARY run
# [--pipe] --max-output 4G -- seq 1 N`, interleaved (the order reversed every
# other round), each ctx run on a fresh store with CTX_NO_COMPACT=1, after a
# `sync` and 1 s of rest. Prints each run's wall and CPU (user + system of
# the process and its children, from wait4), medians with min-max, the load
# average, and the per-round ratio bare wall / ctx wall. The bare reader is
# $DIR/ctx-new's (its ctx-mcp beside it).
#
# $FLOOR adds floor runs: for each NAME=FLAGS (flags joined by +, e.g.
# wf=-write+-fsync), `$DIR/capturefloor FLAGS -- seq 1 N` (go build
# ./bench/capturefloor), with -write's file in a fresh directory. With
# $TRACE set each ctx run gets CTX_TRACE=1, and the medians of its phases
# (from its stderr) are printed, with "after" (every phase after the
# capture's) and "rest" (the wall less every phase: start-up and exit).
import os, re, shutil, statistics, sys, time, subprocess
n=int(sys.argv[1]); N=sys.argv[2]; pty=len(sys.argv)>3 and sys.argv[3]=='pty'
D=os.path.abspath(os.environ.get('DIR','.'))
seq=['seq','1',N]
bare=[D+'/ctx-new','bench','reader']+(['--pty'] if pty else [])+['--']+seq
mode=[] if pty else ['--pipe']
bins=os.environ.get('BINS','main=ctx-main,new=ctx-new').split(',')
cmds=[('bare',bare,None)]+[(b.split('=')[0],[D+'/'+b.split('=')[1],'run']+mode+['--max-output','4G','--']+seq,D+'/st-'+b.split('=')[0]) for b in bins]
ctxs=[c[0] for c in cmds[1:]]
for f in [f for f in os.environ.get('FLOOR','').split(',') if f]:
    name,flags=f.split('=',1); st=D+'/st-'+name
    argv=[D+'/capturefloor']
    for x in [x for x in flags.split('+') if x]: argv+=[x,st+'/out'] if x=='-write' else [x]
    cmds.append((name,argv+['--']+seq,st))
trace=bool(os.environ.get('TRACE')); phases={n:{} for n in ctxs}
res={c[0]:([],[],[]) for c in cmds}
dn=os.open('/dev/null',os.O_RDWR)
loads=[]
for i in range(n):
    order=cmds if i%2==0 else cmds[::-1]
    for name,argv,st in order:
        env=dict(os.environ); env['CTX_NO_COMPACT']='1'
        if st:
            shutil.rmtree(st,ignore_errors=True); os.makedirs(st); env['CTX_STORE']=st+'/.ctx'
        errf=None
        if trace and name in ctxs:
            env['CTX_TRACE']='1'; errf=os.open(st+'/trace',os.O_CREAT|os.O_WRONLY,0o600)
        subprocess.run(['sync']); time.sleep(1)
        loads.append(float(open('/proc/loadavg').read().split()[0]))
        t=time.perf_counter(); pid=os.fork()
        if pid==0:
            if st: os.chdir(st)
            os.dup2(dn,0); os.dup2(dn,1); os.dup2(errf if errf is not None else dn,2); os.execvpe(argv[0],argv,env)
        _,status,ru=os.wait4(pid,0)
        w=time.perf_counter()-t
        if errf is not None:
            os.close(errf); ph={}
            for m in re.finditer(r'ctx: trace (\S.*?)\s+([\d.]+) ms',open(st+'/trace').read()): ph[m.group(1)]=float(m.group(2))
            ph['after']=sum(v for k,v in ph.items() if k!='capture'); ph['rest']=1000*w-sum(v for k,v in ph.items() if k!='after')
            for k,v in ph.items(): phases[name].setdefault(k,[]).append(v)
            print(i,name,' '.join('%s=%.1f'%(k.split()[0],v) for k,v in ph.items()))
        res[name][0].append(w); res[name][1].append(ru.ru_utime+ru.ru_stime); res[name][2].append(ru.ru_maxrss/1024)
        print(i,name,'wall %.2f cpu %.2f rss %.1f MiB status %d'%(w,ru.ru_utime+ru.ru_stime,ru.ru_maxrss/1024,status),flush=True)
    for c in cmds[1:]: shutil.rmtree(c[2],ignore_errors=True)
def q(v):
    v=sorted(v); return statistics.median(v),min(v),max(v)
print('mode', 'pty' if pty else 'pipe', 'N', N, 'rounds', n, 'load med/min/max %.1f/%.1f/%.1f'%q(loads))
for name,_,_ in cmds:
    print('%-5s wall %.2f (%.2f-%.2f) s  cpu %.2f (%.2f-%.2f) s  maxrss %.1f MiB'%((name,)+q(res[name][0])+q(res[name][1])+(max(res[name][2]),)))
for name in [c[0] for c in cmds[1:]]:
    r=[b/c for b,c in zip(res['bare'][0],res[name][0])]
    print('%-5s ratio bare/ctx per round median %.0f%% (%.0f-%.0f%%)'%((name,)+tuple(100*x for x in (statistics.median(r),min(r),max(r)))))
for name in ctxs:
    for k,v in phases[name].items(): print('%-5s phase %-22s %8.1f ms (%.1f-%.1f)'%((name,k)+q(v)))
