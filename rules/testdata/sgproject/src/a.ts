let a: any = 1;
