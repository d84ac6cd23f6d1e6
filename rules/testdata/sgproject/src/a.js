console.log("hello");
console.log(x);
