use std::collections::HashMap;

#[derive(Debug, Clone)]
pub struct Item {
    pub name: String,
    pub count: u32,
}

pub fn total(items: &[Item]) -> u32 {
    items.iter().map(|item| item.count).sum()
}

pub fn by_name(items: Vec<Item>) -> HashMap<String, Item> {
    let mut map = HashMap::new();
    for item in items {
        map.insert(item.name.clone(), item);
    }
    map
}

impl Item {
    pub fn new(name: &str) -> Self {
        Item { name: name.to_string(), count: 0 }
    }
}
