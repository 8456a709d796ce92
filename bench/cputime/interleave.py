#!/usr/bin/env python3
# interleave.py: wall and CPU time (user + system, from wait4) of commands run
# alternately, the order reversed every other round, so a loaded machine
# disturbs every side alike. Medians and interquartile ranges are printed
# with the load average. The issue-21 section of BENCHMARKS.md uses it.
#
#   bench/cputime/interleave.py ROUNDS NAME [VAR=VALUE...] CMD ARGS... ';;' NAME ...
#
# VAR=VALUE words after a name set the command's environment; STDIN=PATH
# feeds it a file (default /dev/null). Output goes to /dev/null.
# RATIOS=A/B,C/D (in the script's own environment) also prints, for each
# pair, the median and IQR of the per-round CPU and wall ratios A/B: the
# two ran within one round, so a slow phase of the machine cancels.
import os, statistics, sys, time

n=int(sys.argv[1]); specs=' '.join(sys.argv[2:]).split(';;')
cmds=[]
for s in specs:
    p=s.split(); env=dict(os.environ)
    while '=' in p[1]:
        k,v=p[1].split('=',1); env[k]=v; p.pop(1)
    cmds.append((p[0],p[1:],env))
res={c[0]:([],[]) for c in cmds}
dn=os.open('/dev/null',os.O_RDWR)
for i in range(n):
    order=cmds if i%2==0 else cmds[::-1]
    for name,argv,env in order:
        t=time.perf_counter()
        pid=os.fork()
        if pid==0:
            fi=os.open(env.get("STDIN","/dev/null"),os.O_RDONLY); os.dup2(fi,0);os.dup2(dn,1);os.dup2(dn,2)
            os.execvpe(argv[0],argv,env)
        _,st,ru=os.wait4(pid,0)
        w=time.perf_counter()-t
        res[name][0].append(w*1e3); res[name][1].append((ru.ru_utime+ru.ru_stime)*1e3)
def q(v):
    v=sorted(v); return v[len(v)//4],statistics.median(v),v[3*len(v)//4]
print("load",open('/proc/loadavg').read().split()[:3], "n=%d"%n)
for name,_,_ in cmds:
    w=q(res[name][0]); c=q(res[name][1])
    print("%-12s wall med %6.2f ms (IQR %.2f-%.2f)  cpu med %6.2f ms (IQR %.2f-%.2f)"%(name,w[1],w[0],w[2],c[1],c[0],c[2]))
for pair in filter(None, os.environ.get("RATIOS","").split(",")):
    a,b=pair.split("/")
    for k,what in ((1,"cpu"),(0,"wall")):
        r=q([x/y for x,y in zip(res[a][k],res[b][k])])
        print("%-12s %s ratio med %.3f (IQR %.3f-%.3f)"%(pair,what,r[1],r[0],r[2]))
