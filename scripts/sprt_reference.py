#!/usr/bin/env python3
# Reference LLRs for the unit tests of src/uci/sprt.rs, written independently of it (plain Python,
# bisection): python3 scripts/sprt_reference.py. The last column of each case is the LLR that
# fastchess or Fishtest published for those counts.
# Independent reference for the pentanomial GSPRT (Van den Bergh, "Comments on Normalized Elo").
import math
A=[0,0.25,0.5,0.75,1]
def bisect(f,lo,hi,n=200):
    flo=f(lo)
    for _ in range(n):
        m=(lo+hi)/2; fm=f(m)
        if (fm>0)==(flo>0): lo,flo=m,fm
        else: hi=m
    return (lo+hi)/2
def pdf(pen):
    c=[x if x>0 else 1e-3 for x in pen]; n=sum(c); return n,[x/n for x in c]
def mle_mean(p,s):
    f=lambda th: sum(pi*(a-s)/(1+th*(a-s)) for a,pi in zip(A,p))
    e=1e-12
    th=bisect(f,-1/(A[-1]-s)+e,-1/(A[0]-s)-e)
    return [pi/(1+th*(a-s)) for a,pi in zip(A,p)]
def mle_t(p,ref,t):
    q=[0.2]*5
    for _ in range(1000):
        mu=sum(a*x for a,x in zip(A,q)); sd=math.sqrt(sum(x*(a-mu)**2 for a,x in zip(A,q)))
        phi=[a-ref-0.5*t*sd*(1+((a-mu)/sd)**2) for a in A]
        f=lambda th: sum(pi*h/(1+th*h) for h,pi in zip(phi,p))
        e=1e-12
        th=bisect(f,-1/max(phi)+e,-1/min(phi)-e)
        new=[pi/(1+th*h) for h,pi in zip(phi,p)]
        d=max(abs(x-y) for x,y in zip(new,q)); q=new
        if d<1e-13: break
    return q
L=lambda e:1/(1+10**(-e/400))
def llr(pen,e0,e1,model):
    n,p=pdf(pen)
    if model=='logistic': q0,q1=mle_mean(p,L(e0)),mle_mean(p,L(e1))
    else:
        k=math.sqrt(2)*math.log(10)/800
        q0,q1=mle_t(p,0.5,e0*k),mle_t(p,0.5,e1*k)
    return n*sum(pi*math.log(b/a) for pi,a,b in zip(p,q0,q1))
# The printed reference values; scripts/referee.py imports the functions above.
if __name__ == '__main__':
    cases=[([307,619,1202,725,353],0,5,2.95),([40,67,295,123,54],0,10,2.95),([120,246,645,386,302],40,45,2.95),
    ([29,80,142,101,60],-5,5,2.97),([352,579,1264,743,464],9,16,4.60),([0,0,1,8,1],0,50,1.24),([0,0,2,0,37],0,20,2.96)]
    for pen,e0,e1,pub in cases:
        print(pen,e0,e1,pub,'normalized %.6f'%llr(pen,e0,e1,'n'),'logistic %.6f'%llr(pen,e0,e1,'logistic'))
    print(math.log(0.05/0.95), math.log(0.95/0.05))
    print('fishtest logistic', llr([292,5905,28939,6129,299],-0.25,1.25,'logistic'), llr([5,418,6043,506,12],0.25,1.25,'logistic'))
    # Degenerate counts (no published value): 200 pairs all won, all lost, all drawn, bounds 0,5.
    for pen in ([0, 0, 0, 0, 200], [200, 0, 0, 0, 0], [0, 0, 200, 0, 0]):
        print('degenerate', pen, 'logistic', llr(pen, 0, 5, 'logistic'), 'normalized', llr(pen, 0, 5, 'n'))
